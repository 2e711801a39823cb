import { displayName, type TOrgMember, type TUser } from '@cc/contract';
import { Pencil, Trash2, UserPlus } from 'lucide-react';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { Alert } from '../../../components/ui/alert';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Skeleton } from '../../../components/ui/skeleton';
import { serverDetail } from '../../../lib/api';
import { formatDate } from '../../../lib/format';
import { notify } from '../../../lib/toast';
import { type Organization, useAddMember, useOrgMembers, useRemoveMember, useUpdateMember } from '../api';
import { type MemberValues, memberChanges } from './member-changes';
import { InviteLinkDialog } from './invite-link-dialog';
import { ACCESS_LEVEL_LABELS, MemberDialog } from './member-dialog';

export function MembersPanel({ org, me }: { org: Organization; me: TUser }) {
  const members = useOrgMembers(org.id);
  const add = useAddMember(org.id);
  const update = useUpdateMember(org.id);
  const remove = useRemoveMember(org.id);
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<TOrgMember | null>(null);
  const [removing, setRemoving] = useState<TOrgMember | null>(null);
  const [inviteLink, setInviteLink] = useState<{ email: string; link: string } | null>(null);
  const manage = org.can_manage;

  const onAdd = (values: MemberValues) => {
    add.mutate(
      { email: values.email.trim(), org_access_level: values.org_access_level || 'user' },
      {
        onSuccess: (m) => {
          setAdding(false);
          // Everyone added is invited: they join once they accept, from their own Organization page.
          notify.success('Invitation Sent', `${m.email} is invited and joins once they accept.`);
          if (m.invite_link) setInviteLink({ email: m.email, link: m.invite_link });
          else if (m.invite_email_sent === false) {
            notify.warning(
              'E-mail Not Sent',
              'The invitation e-mail could not be sent. Add the e-mail again to retry.',
            );
          }
        },
        onError: (err) => notify.error('Add Failed', serverDetail(err) ?? 'Could not add the member.'),
      },
    );
  };

  const onEdit = (values: MemberValues) => {
    if (!editing) return;
    const changes = memberChanges(editing, values);
    if (Object.keys(changes).length === 0) {
      notify.info('No Changes', 'No user information was changed.');
      setEditing(null);
      return;
    }
    update.mutate(
      { member: editing, changes },
      {
        onSuccess: (m) => {
          setEditing(null);
          notify.success(
            'User Updated',
            changes.email && m.pending_email
              ? `The new e-mail takes effect once ${m.pending_email} confirms it from the link we sent.`
              : undefined,
          );
        },
        onError: (err) => notify.error('Update Failed', serverDetail(err) ?? 'Could not update the member.'),
      },
    );
  };

  const onRemove = () => {
    if (!removing) return;
    remove.mutate(removing, {
      onSuccess: () => {
        setRemoving(null);
        notify.success('Member Removed');
      },
      onError: (err) => notify.error('Remove Failed', serverDetail(err) ?? 'Could not remove the member.'),
    });
  };

  return (
    <section aria-labelledby={`members-${org.id}`} className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h3 id={`members-${org.id}`} className="text-base font-semibold">
          Members
        </h3>
        {manage ? (
          <Button size="sm" onClick={() => setAdding(true)}>
            <UserPlus aria-hidden="true" />
            Add member
          </Button>
        ) : null}
      </div>

      {members.isPending ? (
        <div className="flex flex-col gap-2" role="status">
          <span className="sr-only">Loading members…</span>
          <Skeleton className="h-12" />
          <Skeleton className="h-12" />
          <Skeleton className="h-12" />
        </div>
      ) : members.isError ? (
        <Alert>Could not load the members: {members.error.message}</Alert>
      ) : members.data.length === 0 ? (
        <p className="rounded-md border border-dashed border-border px-4 py-6 text-center text-sm text-muted-foreground">
          No members yet.
        </p>
      ) : (
        // Below `sm` each row stacks as a card (name and actions, then e-mail, then level and date), so
        // a 375 px screen needs no sideways scrolling to reach the actions.
        <div className="relative overflow-x-auto rounded-lg border border-border">
          <table className="w-full text-left text-sm max-sm:block sm:min-w-[36rem]">
            <thead className="bg-muted/60 text-xs tracking-wide text-muted-foreground uppercase max-sm:sr-only">
              <tr>
                <th scope="col" className="px-4 py-3 font-medium">
                  Name
                </th>
                <th scope="col" className="px-4 py-3 font-medium">
                  Email
                </th>
                <th scope="col" className="px-4 py-3 font-medium">
                  Access level
                </th>
                <th scope="col" className="px-4 py-3 font-medium">
                  Added
                </th>
                {manage ? (
                  <th scope="col" className="px-4 py-3 text-right font-medium">
                    <span className="sr-only">Actions</span>
                  </th>
                ) : null}
              </tr>
            </thead>
            <tbody className="divide-y divide-border max-sm:block">
              {members.data.map((m) => {
                const name = displayName(m);
                return (
                  <tr
                    key={m.id}
                    className="hover:bg-muted/30 max-sm:grid max-sm:grid-cols-[minmax(0,1fr)_auto] max-sm:gap-x-3 max-sm:gap-y-1 max-sm:px-4 max-sm:py-3"
                  >
                    <td className="px-4 py-3 font-medium max-sm:col-start-1 max-sm:p-0">
                      <span className="flex flex-wrap items-center gap-2">
                        {m.first_name || m.last_name ? (
                          name
                        ) : (
                          <span className="text-muted-foreground">—</span>
                        )}
                        {m.is_invite ? <Badge variant="info">invited</Badge> : null}
                        {m.user_id === me.id ? <Badge variant="outline">you</Badge> : null}
                      </span>
                    </td>
                    <td className="px-4 py-3 wrap-anywhere text-muted-foreground max-sm:col-start-1 max-sm:p-0">
                      {m.email}
                      {m.pending_email ? (
                        <span className="block text-xs">
                          Changing to {m.pending_email} (waiting for that address to confirm)
                        </span>
                      ) : null}
                    </td>
                    <td className="px-4 py-3 max-sm:col-start-1 max-sm:p-0 max-sm:text-xs">
                      {ACCESS_LEVEL_LABELS[m.org_access_level] ?? m.org_access_level}
                    </td>
                    <td className="px-4 py-3 whitespace-nowrap text-muted-foreground max-sm:col-start-1 max-sm:p-0 max-sm:text-xs">
                      <span className="sm:hidden">Added </span>
                      {formatDate(m.created_at)}
                    </td>
                    {manage ? (
                      <td className="px-4 py-2 text-right whitespace-nowrap max-sm:col-start-2 max-sm:row-span-4 max-sm:row-start-1 max-sm:p-0">
                        {/* The row's flags say what the server allows: a refused call would end the session.
                            Invites are never edited or removed (spec). */}
                        <span className="inline-flex gap-1">
                          {!m.is_invite && (m.can_edit_account || m.can_change_access) ? (
                            <Button
                              variant="ghost"
                              size="icon-sm"
                              aria-label={`Edit ${name}`}
                              onClick={() => setEditing(m)}
                            >
                              <Pencil aria-hidden="true" />
                            </Button>
                          ) : null}
                          {!m.is_invite && m.can_change_access ? (
                            <Button
                              variant="ghost"
                              size="icon-sm"
                              aria-label={`Remove ${name}`}
                              className="text-danger-text hover:text-danger-text"
                              onClick={() => setRemoving(m)}
                            >
                              <Trash2 aria-hidden="true" />
                            </Button>
                          ) : null}
                        </span>
                      </td>
                    ) : null}
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}

      <MemberDialog open={adding} onOpenChange={setAdding} pending={add.isPending} onSubmit={onAdd} />
      <InviteLinkDialog
        email={inviteLink?.email ?? ''}
        link={inviteLink?.link ?? null}
        onClose={() => setInviteLink(null)}
      />
      <MemberDialog
        open={editing !== null}
        onOpenChange={(open) => !open && setEditing(null)}
        member={editing ?? undefined}
        accountLocked={editing ? !editing.can_edit_account : false}
        pending={update.isPending}
        onSubmit={onEdit}
      />
      <ConfirmDialog
        open={removing !== null}
        onOpenChange={(open) => !open && setRemoving(null)}
        title="Remove member?"
        description={
          removing
            ? `${displayName(removing)} will lose access to ${org.name}. Their account is not deleted.`
            : ''
        }
        confirmLabel="Remove"
        pending={remove.isPending}
        onConfirm={onRemove}
      />
    </section>
  );
}
