import type { TInvitation } from '@cc/contract';
import { Check, Mail, X } from 'lucide-react';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { serverDetail } from '../../../lib/api';
import { formatDate } from '../../../lib/format';
import { notify } from '../../../lib/toast';
import { useAcceptInvitation, useDeclineInvitation, useMyInvitations } from '../api';
import { ACCESS_LEVEL_LABELS } from './member-dialog';

/**
 * The signed-in person's pending invitations: nobody becomes a member of an organization until they
 * accept here. Hidden when there are none.
 */
export function InvitationsPanel() {
  const invitations = useMyInvitations();
  const accept = useAcceptInvitation();
  const decline = useDeclineInvitation();
  const list = invitations.data ?? [];
  if (list.length === 0) return null;
  const busy = accept.isPending || decline.isPending;

  const onAccept = (inv: TInvitation) =>
    accept.mutate(inv, {
      onSuccess: () =>
        notify.success('Invitation Accepted', `You are now a member of ${inv.organization_name}.`),
      onError: (err) =>
        notify.error('Accept Failed', serverDetail(err) ?? 'Could not accept the invitation.'),
    });
  const onDecline = (inv: TInvitation) =>
    decline.mutate(inv, {
      onSuccess: () => notify.success('Invitation Declined', inv.organization_name),
      onError: (err) =>
        notify.error('Decline Failed', serverDetail(err) ?? 'Could not decline the invitation.'),
    });

  return (
    <Card className="flex flex-col gap-3 p-5" aria-labelledby="invitations-heading" role="region">
      <h2 id="invitations-heading" className="flex items-center gap-2 text-base font-semibold">
        <Mail className="size-4" aria-hidden="true" />
        Invitations
      </h2>
      <ul className="flex flex-col divide-y divide-border">
        {list.map((inv) => (
          <li
            key={inv.id}
            aria-label={`Invitation to ${inv.organization_name}`}
            className="flex flex-wrap items-center justify-between gap-3 py-3"
          >
            <div className="flex min-w-0 flex-col gap-0.5">
              <span className="font-medium break-all">{inv.organization_name}</span>
              <span className="text-xs text-muted-foreground">
                As {ACCESS_LEVEL_LABELS[inv.org_access_level] ?? inv.org_access_level}
                {inv.invited_by_name ? ` · invited by ${inv.invited_by_name}` : ''} ·{' '}
                {formatDate(inv.created_at)}
              </span>
            </div>
            <div className="flex gap-2">
              <Button size="sm" disabled={busy} onClick={() => onAccept(inv)}>
                <Check aria-hidden="true" />
                Accept
              </Button>
              <Button variant="outline" size="sm" disabled={busy} onClick={() => onDecline(inv)}>
                <X aria-hidden="true" />
                Decline
              </Button>
            </div>
          </li>
        ))}
      </ul>
    </Card>
  );
}
