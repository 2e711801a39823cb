import { displayName, type TUser, USER_LEVEL_LABELS } from '@cc/contract';
import { Check, Pencil, Trash2 } from 'lucide-react';
import { Badge, type BadgeProps } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { formatDate } from '../../../lib/format';
import { canDeleteUser } from './user-rules';

const LEVEL_BADGE: Record<string, BadgeProps['variant']> = {
  waitlisted: 'warning',
  user: 'secondary',
  admin: 'danger',
  ceo: 'info',
};

interface UserTableProps {
  users: TUser[];
  currentUserId: string;
  approvingId: string | null;
  onApprove: (user: TUser) => void;
  onEdit: (user: TUser) => void;
  onDelete: (user: TUser) => void;
}

export function UserTable({
  users,
  currentUserId,
  approvingId,
  onApprove,
  onEdit,
  onDelete,
}: UserTableProps) {
  return (
    <div className="relative overflow-x-auto rounded-lg border border-border">
      <table className="w-full min-w-[48rem] text-left text-sm">
        <thead className="bg-muted/60 text-xs tracking-wide text-muted-foreground uppercase">
          <tr>
            <th scope="col" className="px-4 py-3 font-medium">
              Name
            </th>
            <th scope="col" className="px-4 py-3 font-medium">
              Email
            </th>
            <th scope="col" className="px-4 py-3 font-medium">
              Organization
            </th>
            <th scope="col" className="px-4 py-3 font-medium">
              Role
            </th>
            <th scope="col" className="px-4 py-3 font-medium">
              Created At
            </th>
            <th scope="col" className="px-4 py-3 text-right font-medium">
              Actions
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-border">
          {users.map((u) => {
            const name = displayName(u);
            const approving = approvingId === u.id;
            return (
              <tr key={u.id} className="hover:bg-muted/30">
                <td className="px-4 py-3 font-medium">
                  {name}
                  {u.id === currentUserId ? (
                    <Badge variant="outline" className="ml-2">
                      you
                    </Badge>
                  ) : null}
                </td>
                <td className="px-4 py-3 wrap-anywhere text-muted-foreground">{u.email}</td>
                <td className="px-4 py-3 text-muted-foreground">{u.organization_name ?? '—'}</td>
                <td className="px-4 py-3">
                  <Badge variant={LEVEL_BADGE[u.user_level] ?? 'outline'}>
                    {USER_LEVEL_LABELS[u.user_level] ?? u.user_level}
                  </Badge>
                </td>
                <td className="px-4 py-3 whitespace-nowrap text-muted-foreground">
                  {formatDate(u.created_at)}
                </td>
                <td className="px-4 py-2 text-right whitespace-nowrap">
                  <span className="inline-flex items-center gap-1">
                    {u.user_level === 'waitlisted' ? (
                      <Button
                        variant="secondary"
                        size="sm"
                        disabled={approving}
                        onClick={() => onApprove(u)}
                        aria-label={`Approve ${name}`}
                      >
                        {approving ? <Spinner /> : <Check aria-hidden="true" />}
                        Approve
                      </Button>
                    ) : null}
                    <Button
                      variant="ghost"
                      size="icon-sm"
                      aria-label={`Edit ${name}`}
                      onClick={() => onEdit(u)}
                    >
                      <Pencil aria-hidden="true" />
                    </Button>
                    {canDeleteUser(u, currentUserId) ? (
                      <Button
                        variant="ghost"
                        size="icon-sm"
                        aria-label={`Delete ${name}`}
                        className="text-danger-text hover:text-danger-text"
                        onClick={() => onDelete(u)}
                      >
                        <Trash2 aria-hidden="true" />
                      </Button>
                    ) : (
                      <span className="inline-block size-8" aria-hidden="true" />
                    )}
                  </span>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
