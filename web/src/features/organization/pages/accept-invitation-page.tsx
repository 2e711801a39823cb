import { Building2 } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { Alert } from '../../../components/ui/alert';
import { Card } from '../../../components/ui/card';
import { Spinner } from '../../../components/ui/spinner';
import { type ClaimedInvitation, useClaimInvitation } from '../api';
import { takeInvitationSecret } from '../invitation-secret';

const NO_LINK = 'No invitation link was opened. Open the link from the invitation e-mail again.';

/** /app/invitation: accepts the invitation whose link was opened, for the signed-in account. */
export default function AcceptInvitationPage() {
  const claim = useClaimInvitation();
  const [joined, setJoined] = useState<ClaimedInvitation | null>(null);
  const [error, setError] = useState<string | null>(null);
  const sent = useRef(false);
  useEffect(() => {
    if (sent.current) return;
    sent.current = true;
    const secret = takeInvitationSecret();
    if (!secret) {
      setError(NO_LINK);
      return;
    }
    claim.mutate(secret, { onSuccess: setJoined, onError: (err) => setError(err.message) });
  }, [claim]);

  return (
    <div className="mx-auto w-full max-w-lg px-4 py-10">
      <Card className="p-6 sm:p-8">
        <h1 className="mb-4 text-2xl font-semibold tracking-tight">Invitation</h1>
        {error ? <Alert>{error}</Alert> : null}
        {joined ? (
          <p className="flex items-center gap-2" role="status">
            <Building2 className="size-5 text-primary" aria-hidden="true" />
            You are now a member of {joined.organization_name}.
          </p>
        ) : null}
        {!joined && !error ? (
          <p className="flex items-center gap-2 text-sm text-muted-foreground" role="status">
            <Spinner /> Accepting the invitation…
          </p>
        ) : null}
        <p className="mt-6 text-sm">
          <Link
            to="/app/organization"
            className="font-medium text-primary underline-offset-4 hover:underline"
          >
            Go to Organization
          </Link>
        </p>
      </Card>
    </div>
  );
}
