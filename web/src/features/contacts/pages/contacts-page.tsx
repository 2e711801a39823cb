import type {
  TCreateContactRequest,
  TInteractionRequest,
  TPastInteraction,
  TUpdateContactRequest,
} from '@cc/contract';
import { LayoutGrid, List, Plus, Users } from 'lucide-react';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { PageHeader } from '../../../components/page-header';
import { SearchField } from '../../../components/search-field';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Skeleton } from '../../../components/ui/skeleton';
import { useAuth } from '../../../lib/auth';
import { useDebounced } from '../../../lib/use-debounced';
import { notify } from '../../../lib/toast';
import { useLinkedRecord } from '../../../lib/use-linked-record';
import { useStaleVersion } from '../../../lib/use-stale-version';
import { cn } from '../../../lib/utils';
import { useOrganizations } from '../../../lib/queries/organizations';
import {
  type Contact,
  type OrganizationRef,
  readContact,
  sharedOrgNames,
  useContacts,
  useCreateContact,
  useDeleteContact,
  useDeleteInteraction,
  useSaveInteraction,
  useUpdateContact,
} from '../api';
import { ContactCard, type ContactsView } from '../components/contact-card';
import { ContactDetailDialog } from '../components/contact-detail-dialog';
import { ContactFormDialog } from '../components/contact-form-dialog';
import { InteractionDialog } from '../components/interaction-dialog';

const CONTACT_SAVE_FAILED = 'Failed to save contact.';
const INTERACTION_SAVE_FAILED = 'Failed to save interaction. Please try again.';

type FormState = { mode: 'create' } | { mode: 'edit'; contact: Contact } | null;
type InteractionState = { interaction: TPastInteraction | null } | null;

export default function ContactsPage() {
  const { user } = useAuth();
  const [search, setSearch] = useState('');
  const searched = useDebounced(search.trim(), 250);
  const contacts = useContacts(searched);
  const orgs = useOrganizations();
  const create = useCreateContact();
  const update = useUpdateContact();
  const remove = useDeleteContact();
  const saveInteraction = useSaveInteraction();
  const removeInteraction = useDeleteInteraction();

  const [view, setView] = useState<ContactsView>('grid');
  const [openId, setOpenId] = useState<string | null>(null);
  const [form, setForm] = useState<FormState>(null);
  const [deleting, setDeleting] = useState<Contact | null>(null);
  const [interactionDialog, setInteractionDialog] = useState<InteractionState>(null);
  const [deletingInteraction, setDeletingInteraction] = useState<TPastInteraction | null>(null);

  // Searched on the server, a page at a time; the open contact is read from the cached list, so every
  // change shows at once.
  const list = contacts.contacts;
  // A citation link (?contact=<id>) opens that contact's card, even one beyond the loaded pages.
  const [linked, setLinked] = useState<Contact | null>(null);
  useLinkedRecord('contact', 'contact', readContact, (c) => {
    setLinked(c);
    setOpenId(c.id);
  });
  const open = list.find((c) => c.id === openId) ?? (linked?.id === openId ? linked : null);
  const myOrgs: OrganizationRef[] = (orgs.data ?? []).filter((o) => o.my_access_level !== null);
  const defaultOwnerOrgId =
    user?.organization_id && myOrgs.some((o) => o.id === user.organization_id) ? user.organization_id : null;
  const namesOf = (c: Contact) => sharedOrgNames(c, orgs.data);

  const contactFailed = () => notify.error(CONTACT_SAVE_FAILED, 'Please try again.');

  const onCreate = (body: TCreateContactRequest) =>
    create.mutate(body, {
      onSuccess: (contact) => {
        setForm(null);
        notify.success('Contact created', contact.name);
      },
      onError: contactFailed,
    });

  const stale = useStaleVersion(readContact);
  const closeForm = () => {
    stale.clear();
    setForm(null);
  };

  const onUpdate = (body: TUpdateContactRequest) => {
    if (form?.mode !== 'edit') return;
    if (Object.keys(body).length === 0) {
      setForm(null);
      return;
    }
    const base = form.contact;
    update.mutate(
      { id: base.id, body, ifMatch: stale.version(base) },
      {
        onSuccess: (contact) => {
          closeForm();
          notify.success('Contact updated', contact.name);
        },
        onError: async (err) => {
          // Changed meanwhile: the form shows both versions instead of an error.
          if (!(await stale.onSaveError(err, base.id))) contactFailed();
        },
      },
    );
  };

  const onSaveNotes = (notes: string | null) => {
    if (!open) return;
    update.mutate({ id: open.id, body: { notes } }, { onError: contactFailed });
  };

  const onDelete = () => {
    if (!deleting) return;
    remove.mutate(deleting.id, {
      onSuccess: () => {
        if (openId === deleting.id) setOpenId(null);
        setDeleting(null);
        notify.success('Contact deleted', deleting.name);
      },
      onError: (err) => notify.error('Failed to delete contact.', err.message),
    });
  };

  const onSaveInteraction = (body: TInteractionRequest) => {
    if (!open || !interactionDialog) return;
    saveInteraction.mutate(
      { contactId: open.id, interactionId: interactionDialog.interaction?.id, body },
      {
        onSuccess: () => setInteractionDialog(null),
        onError: () => notify.error(INTERACTION_SAVE_FAILED),
      },
    );
  };

  const onDeleteInteraction = () => {
    if (!open || !deletingInteraction) return;
    removeInteraction.mutate(
      { contactId: open.id, interactionId: deletingInteraction.id },
      {
        onSuccess: () => setDeletingInteraction(null),
        onError: (err) => notify.error('Failed to delete interaction.', err.message),
      },
    );
  };

  return (
    <div className="flex flex-col gap-6">
      <PageHeader
        title="Contacts Directory"
        description="The people you work with, shared with your organizations."
        actions={
          <Button onClick={() => setForm({ mode: 'create' })}>
            <Plus aria-hidden="true" />
            Add New Contact
          </Button>
        }
      />

      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <SearchField
          id="contacts-search"
          label="Search contacts"
          hideLabel
          value={search}
          onChange={setSearch}
          placeholder="Search by name, role or email"
          className="w-full sm:max-w-sm"
        />
        <fieldset className="inline-flex self-start rounded-md border border-border p-0.5 sm:self-auto">
          <legend className="sr-only">Layout</legend>
          <ViewButton active={view === 'grid'} onClick={() => setView('grid')} label="Grid view">
            <LayoutGrid aria-hidden="true" />
          </ViewButton>
          <ViewButton active={view === 'list'} onClick={() => setView('list')} label="List view">
            <List aria-hidden="true" />
          </ViewButton>
        </fieldset>
      </div>

      {contacts.isPending ? (
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-2 xl:grid-cols-3" role="status">
          <span className="sr-only">Loading contacts…</span>
          {[0, 1, 2, 3, 4, 5].map((i) => (
            <Skeleton key={i} className="h-44 rounded-xl" />
          ))}
        </div>
      ) : !contacts.data ? (
        <Alert>Could not load your contacts: {contacts.error?.message}</Alert>
      ) : list.length === 0 ? (
        <Card className="flex flex-col items-center gap-2 px-6 py-14 text-center">
          <Users className="size-8 text-muted-foreground" aria-hidden="true" />
          {searched === '' ? (
            <>
              <p className="font-medium">No contacts found.</p>
              <p className="text-sm text-muted-foreground">Click "Add New Contact" to get started.</p>
            </>
          ) : (
            <p className="font-medium">No contacts match your search.</p>
          )}
        </Card>
      ) : (
        <>
          <ul
            aria-label="Contacts"
            aria-busy={contacts.isPlaceholderData}
            data-view={view}
            className={cn(
              'grid grid-cols-1 gap-4',
              view === 'grid' ? 'sm:grid-cols-2 xl:grid-cols-3' : 'gap-2',
            )}
          >
            {list.map((c) => (
              <li key={c.id} className="flex min-w-0">
                <ContactCard contact={c} sharedWith={namesOf(c)} view={view} onOpen={() => setOpenId(c.id)} />
              </li>
            ))}
          </ul>
          {contacts.hasNextPage ? (
            <Button
              variant="outline"
              className="self-center"
              disabled={contacts.isFetchingNextPage}
              onClick={() => contacts.fetchNextPage()}
            >
              {contacts.isFetchingNextPage ? 'Loading more contacts…' : 'Load more contacts'}
            </Button>
          ) : null}
          {contacts.isFetchNextPageError ? (
            <Alert>Could not load more contacts: {contacts.error?.message}</Alert>
          ) : null}
        </>
      )}

      <ContactDetailDialog
        contact={open}
        sharedWith={open ? namesOf(open) : []}
        onOpenChange={(next) => !next && setOpenId(null)}
        notesPending={update.isPending && form === null}
        onSaveNotes={onSaveNotes}
        onEdit={() => open && setForm({ mode: 'edit', contact: open })}
        onDelete={() => open && setDeleting(open)}
        onAddInteraction={() => setInteractionDialog({ interaction: null })}
        onEditInteraction={(interaction) => setInteractionDialog({ interaction })}
        onDeleteInteraction={setDeletingInteraction}
      />
      <ContactFormDialog
        open={form !== null}
        onOpenChange={(next) => !next && closeForm()}
        contact={form?.mode === 'edit' ? form.contact : null}
        organizations={myOrgs}
        defaultOwnerOrgId={defaultOwnerOrgId}
        pending={create.isPending || update.isPending}
        onCreate={onCreate}
        onUpdate={onUpdate}
        stale={stale.fresh}
        onUseTheirs={() => {
          // The form resets to the contact it is given: the fresh one.
          if (stale.fresh) setForm({ mode: 'edit', contact: stale.fresh });
          stale.clear();
        }}
      />
      <InteractionDialog
        open={interactionDialog !== null}
        onOpenChange={(next) => !next && setInteractionDialog(null)}
        interaction={interactionDialog?.interaction}
        contactName={open?.name ?? 'this contact'}
        pending={saveInteraction.isPending}
        onSubmit={onSaveInteraction}
      />
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(next) => !next && setDeleting(null)}
        title="Confirm Contact Deletion"
        description="Are you sure you want to delete this contact? This action cannot be undone."
        confirmLabel="Delete Contact"
        pending={remove.isPending}
        onConfirm={onDelete}
      />
      <ConfirmDialog
        open={deletingInteraction !== null}
        onOpenChange={(next) => !next && setDeletingInteraction(null)}
        title="Delete Interaction"
        description="Are you sure you want to delete this past interaction?"
        confirmLabel="Delete"
        pending={removeInteraction.isPending}
        onConfirm={onDeleteInteraction}
      />
    </div>
  );
}

function ViewButton({
  active,
  onClick,
  label,
  children,
}: {
  active: boolean;
  onClick: () => void;
  label: string;
  children: React.ReactNode;
}) {
  return (
    <button
      type="button"
      aria-pressed={active}
      aria-label={label}
      title={label}
      onClick={onClick}
      className={cn(
        'inline-flex size-9 items-center justify-center rounded transition-colors focus-visible:outline-2 focus-visible:outline-ring [&_svg]:size-4',
        active ? 'bg-secondary text-foreground' : 'text-muted-foreground hover:text-foreground',
      )}
    >
      {children}
    </button>
  );
}
