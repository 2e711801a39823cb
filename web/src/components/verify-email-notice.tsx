import { MailWarning } from 'lucide-react';
import { serverDetail } from '../lib/api';
import { useResendVerification } from '../lib/queries/email-verification';
import { notify } from '../lib/toast';
import { Button } from './ui/button';

/**
 * An account whose address was not confirmed yet (a self sign-up that never opened its link): the
 * waitlist and profile pages ask for the link to be opened (single sign-on will not join this account
 * by itself until then) and can send it again.
 */
export function VerifyEmailNotice({ email }: { email: string }) {
  const resend = useResendVerification();
  const send = () =>
    resend.mutate(undefined, {
      onSuccess: (r) =>
        r.email_sent
          ? notify.success('Link Sent', `We sent a new confirmation link to ${email}.`)
          : notify.error('Link Not Sent', 'No e-mail could be sent right now. Please ask an administrator.'),
      onError: (err) => notify.error('Link Not Sent', serverDetail(err) ?? 'Please try again later.'),
    });
  return (
    <div className="mt-6 flex flex-col items-center gap-3 rounded-md border border-border p-4 text-sm">
      <p className="flex items-center gap-2 text-muted-foreground">
        <MailWarning className="size-4 text-primary" aria-hidden="true" />
        Please confirm your e-mail address with the link we sent to {email}.
      </p>
      <Button variant="outline" size="sm" onClick={send} disabled={resend.isPending}>
        Send the link again
      </Button>
    </div>
  );
}
