import { Building2, Pencil, Plus, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { PageHeader } from '../../../components/page-header';
import { Alert } from '../../../components/ui/alert';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Skeleton } from '../../../components/ui/skeleton';
import { hasLevel, ORG_CREATOR_LEVELS } from '../../../lib/access';
import { serverDetail } from '../../../lib/api';
import { useAuth } from '../../../lib/auth';
import { cn } from '../../../lib/utils';
import { useOrganizations } from '../../../lib/queries/organizations';
import { notify } from '../../../lib/toast';
import {
  type Organization,
  useCreateOrganization,
  useDeleteOrganization,
  useRenameOrganization,
} from '../api';
import { InvitationsPanel } from '../components/invitations-panel';
import { ACCESS_LEVEL_LABELS } from '../components/member-dialog';
import { MembersPanel } from '../components/members-panel';
import { OrganizationDialog } from '../components/organization-dialog';

export default function OrganizationPage() {
  const { user } = useAuth();
  const orgs = useOrganizations();
  const [params, setParams] = useSearchParams();
  const create = useCreateOrganization();
  const rename = useRenameOrganization();
  const remove = useDeleteOrganization();
  const [creating, setCreating] = useState(false);
  const [renaming, setRenaming] = useState<Organization | null>(null);
  const [deleting, setDeleting] = useState<Organization | null>(null);

  if (!user) return null;
  const canCreate = hasLevel(user.user_level, ORG_CREATOR_LEVELS);
  const list = orgs.data ?? [];
  const selected = list.find((o) => o.id === params.get('org')) ?? list[0];
  const select = (id: string) => setParams({ org: id }, { replace: true });

  const onCreate = (name: string) =>
    create.mutate(name, {
      onSuccess: (org) => {
        setCreating(false);
        select(org.id);
        notify.success('Organization Created', org.name);
      },
      onError: (err) =>
        notify.error('Create Failed', serverDetail(err) ?? 'Could not create the organization.'),
    });

  const onRename = (name: string) => {
    if (!renaming) return;
    rename.mutate(
      { id: renaming.id, name },
      {
        onSuccess: () => {
          setRenaming(null);
          notify.success('Organization Renamed', name);
        },
        onError: (err) =>
          notify.error('Update Failed', serverDetail(err) ?? 'Could not rename the organization.'),
      },
    );
  };

  const onDelete = () => {
    if (!deleting) return;
    remove.mutate(deleting.id, {
      onSuccess: () => {
        setDeleting(null);
        setParams({}, { replace: true });
        notify.success('Organization Deleted');
      },
      onError: (err) =>
        notify.error('Delete Failed', serverDetail(err) ?? 'Could not delete the organization.'),
    });
  };

  return (
    <div className="flex flex-col gap-6">
      <PageHeader
        title="Organization"
        description="The organizations you belong to and their members."
        actions={
          canCreate ? (
            <Button onClick={() => setCreating(true)}>
              <Plus aria-hidden="true" />
              New organization
            </Button>
          ) : null
        }
      />

      <InvitationsPanel />

      {orgs.isPending ? (
        <div className="grid grid-cols-1 gap-4 lg:grid-cols-[18rem_1fr]" role="status">
          <span className="sr-only">Loading organizations…</span>
          <Skeleton className="h-40" />
          <Skeleton className="h-72" />
        </div>
      ) : orgs.isError ? (
        <Alert>Could not load your organizations: {orgs.error.message}</Alert>
      ) : list.length === 0 || !selected ? (
        <Card className="flex flex-col items-center gap-3 px-6 py-14 text-center">
          <Building2 className="size-8 text-muted-foreground" aria-hidden="true" />
          <p className="font-medium">No organization assigned.</p>
          {canCreate ? (
            <Button variant="outline" onClick={() => setCreating(true)}>
              <Plus aria-hidden="true" />
              Create your first organization
            </Button>
          ) : (
            <p className="text-sm text-muted-foreground">Ask your CEO or administrator to add you to one.</p>
          )}
        </Card>
      ) : (
        <div className="grid grid-cols-1 items-start gap-6 lg:grid-cols-[18rem_minmax(0,1fr)]">
          <nav aria-label="Organizations" className="flex flex-col gap-2">
            {list.map((org) => (
              <button
                key={org.id}
                type="button"
                onClick={() => select(org.id)}
                aria-current={org.id === selected.id ? 'true' : undefined}
                className={cn(
                  'flex flex-col items-start gap-1 rounded-lg border px-4 py-3 text-left transition-colors',
                  org.id === selected.id
                    ? 'border-primary/60 bg-card'
                    : 'border-border bg-card/50 hover:border-[#3a4a6d] hover:bg-card',
                )}
              >
                <span className="font-medium break-all">{org.name}</span>
                <span className="text-xs text-muted-foreground">
                  {org.member_count} {org.member_count === 1 ? 'member' : 'members'}
                  {org.my_access_level ? ` · ${ACCESS_LEVEL_LABELS[org.my_access_level]}` : ''}
                </span>
              </button>
            ))}
          </nav>

          <Card className="flex flex-col gap-6 p-5 sm:p-6">
            <div className="flex flex-wrap items-start justify-between gap-3">
              <div className="flex min-w-0 flex-col gap-1.5">
                <h2 className="text-xl font-semibold break-all">{selected.name}</h2>
                <div className="flex flex-wrap items-center gap-2 text-sm text-muted-foreground">
                  <span>
                    {selected.member_count} {selected.member_count === 1 ? 'member' : 'members'}
                  </span>
                  {selected.my_access_level ? (
                    <Badge variant="secondary">
                      Your access: {ACCESS_LEVEL_LABELS[selected.my_access_level]}
                    </Badge>
                  ) : null}
                  {!selected.can_manage ? <Badge variant="outline">Read-only</Badge> : null}
                </div>
              </div>
              {selected.can_edit ? (
                <div className="flex gap-2">
                  <Button variant="outline" size="sm" onClick={() => setRenaming(selected)}>
                    <Pencil aria-hidden="true" />
                    Rename
                  </Button>
                  <Button
                    variant="outline"
                    size="sm"
                    className="text-danger-text"
                    onClick={() => setDeleting(selected)}
                  >
                    <Trash2 aria-hidden="true" />
                    Delete
                  </Button>
                </div>
              ) : null}
            </div>
            <MembersPanel key={selected.id} org={selected} me={user} />
          </Card>
        </div>
      )}

      <OrganizationDialog
        open={creating}
        onOpenChange={setCreating}
        pending={create.isPending}
        onSubmit={onCreate}
      />
      <OrganizationDialog
        open={renaming !== null}
        onOpenChange={(open) => !open && setRenaming(null)}
        initialName={renaming?.name ?? ''}
        pending={rename.isPending}
        onSubmit={onRename}
      />
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title="Delete organization?"
        description={
          deleting
            ? `${deleting.name} and all its memberships will be deleted. This action cannot be undone.`
            : ''
        }
        confirmLabel="Delete organization"
        pending={remove.isPending}
        onConfirm={onDelete}
      />
    </div>
  );
}
