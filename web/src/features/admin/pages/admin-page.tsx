import { displayName, type TUser } from '@cc/contract';
import { Search, UserPlus } from 'lucide-react';
import { type ReactNode, useMemo, useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { PageHeader } from '../../../components/page-header';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Input } from '../../../components/ui/input';
import { Skeleton } from '../../../components/ui/skeleton';
import { serverDetail } from '../../../lib/api';
import { useAuth } from '../../../lib/auth';
import { notify } from '../../../lib/toast';
import { useOrganizations } from '../../../lib/queries/organizations';
import { useAdminUsers, useCreateUser, useDeleteUser, useUpdateUser } from '../api';
import { CreateUserDialog, EditUserDialog } from '../components/user-dialogs';
import { type EditUserValues, editUserChanges, filterUsers } from '../components/user-rules';
import { UserTable } from '../components/user-table';

const TAB_CLASS =
  'rounded-md px-3 py-1.5 text-sm font-medium transition-colors focus-visible:outline-2 focus-visible:outline-ring aria-selected:bg-muted aria-selected:text-foreground text-muted-foreground hover:text-foreground';

/** Super Admin; `activity` (the ledger's tab, composed in by the route) adds the Users / Activity tabs. */
export default function AdminPage({ activity }: { activity?: ReactNode } = {}) {
  const [tab, setTab] = useState<'users' | 'activity'>('users');
  const { user: me } = useAuth();
  const users = useAdminUsers();
  const orgs = useOrganizations();
  const create = useCreateUser();
  const update = useUpdateUser();
  const remove = useDeleteUser();
  const [search, setSearch] = useState('');
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<TUser | null>(null);
  const [deleting, setDeleting] = useState<TUser | null>(null);
  const [approvingId, setApprovingId] = useState<string | null>(null);

  const visible = useMemo(() => filterUsers(users.data ?? [], search), [users.data, search]);
  if (!me) return null;
  const organizations = orgs.data ?? [];

  const onCreate = (body: Parameters<typeof create.mutate>[0]) =>
    create.mutate(body, {
      onSuccess: (u) => {
        setCreating(false);
        notify.success('User Created', u.email);
      },
      onError: (err) => notify.error('Creation Failed', serverDetail(err) ?? 'Could not create user.'),
    });

  const onEdit = (target: TUser, values: EditUserValues) => {
    const changes = editUserChanges(target, values);
    if (Object.keys(changes).length === 0) {
      setEditing(null);
      notify.info('No Changes', 'No user information was changed.');
      return;
    }
    update.mutate(
      { id: target.id, changes },
      {
        onSuccess: () => {
          setEditing(null);
          notify.success('User Updated', displayName(target));
        },
        onError: (err) => notify.error('Update Failed', serverDetail(err) ?? 'Could not update user.'),
      },
    );
  };

  const onApprove = (target: TUser) => {
    setApprovingId(target.id);
    update.mutate(
      { id: target.id, changes: { user_level: 'user' } },
      {
        onSuccess: () =>
          notify.success('User Updated', `${displayName(target)} is approved and can now sign in.`),
        onError: (err) => notify.error('Update Failed', serverDetail(err) ?? 'Could not update user.'),
        onSettled: () => setApprovingId(null),
      },
    );
  };

  const onDelete = () => {
    if (!deleting) return;
    remove.mutate(deleting.id, {
      onSuccess: () => {
        notify.success('User Deleted', displayName(deleting));
        setDeleting(null);
      },
      onError: (err) => notify.error('Delete Failed', serverDetail(err) ?? 'Could not delete user.'),
    });
  };

  return (
    <div className="flex flex-col gap-6">
      <PageHeader
        title="Super Admin"
        description="Every account on the platform: approve waitlisted users, edit levels and organizations."
        actions={
          <Button onClick={() => setCreating(true)}>
            <UserPlus aria-hidden="true" />
            Create User
          </Button>
        }
      />
      {activity ? (
        <div
          role="tablist"
          aria-label="Super Admin sections"
          className="flex gap-1 border-b border-border pb-2"
        >
          {(['users', 'activity'] as const).map((t) => (
            <button
              key={t}
              type="button"
              role="tab"
              id={`admin-tab-${t}`}
              aria-selected={tab === t}
              aria-controls={`admin-panel-${t}`}
              className={TAB_CLASS}
              onClick={() => setTab(t)}
            >
              {t === 'users' ? 'Users' : 'Activity'}
            </button>
          ))}
        </div>
      ) : null}
      {activity && tab === 'activity' ? (
        <Card
          id="admin-panel-activity"
          role="tabpanel"
          aria-labelledby="admin-tab-activity"
          className="p-4 sm:p-5"
        >
          {activity}
        </Card>
      ) : null}
      {activity && tab !== 'users' ? null : (
        <Card className="flex flex-col gap-4 p-4 sm:p-5">
          <div className="relative max-w-md">
            <label htmlFor="admin-user-search" className="sr-only">
              Search users
            </label>
            <Search
              className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
              aria-hidden="true"
            />
            <Input
              id="admin-user-search"
              type="search"
              placeholder="Search by name, email or organization"
              value={search}
              onChange={(e) => setSearch(e.target.value)}
              className="pl-9"
            />
          </div>
          {users.isPending ? (
            <div className="flex flex-col gap-2" role="status">
              <span className="sr-only">Loading users…</span>
              {[0, 1, 2, 3, 4].map((i) => (
                <Skeleton key={i} className="h-12" />
              ))}
            </div>
          ) : users.isError ? (
            <Alert>Failed to load data</Alert>
          ) : visible.length === 0 ? (
            <p className="rounded-md border border-dashed border-border px-4 py-10 text-center text-sm text-muted-foreground">
              No users found.
            </p>
          ) : (
            <UserTable
              users={visible}
              currentUserId={me.id}
              approvingId={approvingId}
              onApprove={onApprove}
              onEdit={setEditing}
              onDelete={setDeleting}
            />
          )}
        </Card>
      )}

      <CreateUserDialog
        open={creating}
        onOpenChange={setCreating}
        organizations={organizations}
        pending={create.isPending}
        onSubmit={onCreate}
      />
      <EditUserDialog
        user={editing}
        onOpenChange={(open) => !open && setEditing(null)}
        organizations={organizations}
        isSelf={editing?.id === me.id}
        pending={update.isPending && approvingId === null}
        onSubmit={onEdit}
      />
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title="Delete user?"
        description={
          deleting
            ? `${displayName(deleting)} (${deleting.email}) will be deleted permanently. This cannot be undone.`
            : ''
        }
        confirmLabel="Delete user"
        pending={remove.isPending}
        onConfirm={onDelete}
      />
    </div>
  );
}
