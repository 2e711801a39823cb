import { MailCheck } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { PublicLayout } from '../../../components/public-layout';
import { Alert } from '../../../components/ui/alert';
import { Spinner } from '../../../components/ui/spinner';
import { takeLinkSecret } from '../../../lib/link-secret';
import { type EmailConfirmation, useConfirmEmail } from '../api';
import { AuthCard } from '../components/auth-card';

const INCOMPLETE = 'This confirmation link is incomplete. Open the link from the e-mail again.';

/** Where the links e-mailed to confirm an address land: a sign-up's own e-mail, or a new one for an account. */
export default function ConfirmEmailPage() {
  const confirm = useConfirmEmail();
  const [done, setDone] = useState<EmailConfirmation | null>(null);
  const [error, setError] = useState<string | null>(null);
  // The secret is single use: post it once, even if the page renders again.
  const sent = useRef(false);
  useEffect(() => {
    if (sent.current) return;
    sent.current = true;
    const token = takeLinkSecret();
    if (!token) {
      setError(INCOMPLETE);
      return;
    }
    confirm.mutate(token, { onSuccess: setDone, onError: (err) => setError(err.message) });
  }, [confirm]);

  return (
    <PublicLayout nav="none">
      <AuthCard title="Confirm your e-mail address" subtitle="Command Centre">
        {error ? <Alert>{error}</Alert> : null}
        {done ? (
          <div className="flex flex-col gap-3" role="status">
            <p className="flex items-center gap-2 font-medium">
              <MailCheck className="size-5 text-primary" aria-hidden="true" />
              {done.purpose === 'change'
                ? `Your account's e-mail address is now ${done.email}.`
                : `Your e-mail address ${done.email} is confirmed.`}
            </p>
            {done.purpose === 'change' ? (
              <p className="text-sm text-muted-foreground">Please sign in again with the new address.</p>
            ) : null}
          </div>
        ) : null}
        {!done && !error ? (
          <p className="flex items-center gap-2 text-sm text-muted-foreground" role="status">
            <Spinner /> Confirming…
          </p>
        ) : null}
        <p className="mt-6 text-center text-sm">
          <Link to="/login" className="font-medium text-primary underline-offset-4 hover:underline">
            Go to login
          </Link>
        </p>
      </AuthCard>
    </PublicLayout>
  );
}
