import type {
  TContact,
  TCreateContactRequest,
  TInteractionRequest,
  TOrganization,
  TUpdateContactRequest,
} from '@cc/contract';
import { MAX_PAGE_SIZE } from '@cc/contract';
import { type QueryClient, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api';

export type Contact = TContact;
export type OrganizationRef = Pick<TOrganization, 'id' | 'name' | 'my_access_level'>;

export const contactKeys = {
  all: ['contacts'] as const,
  list: () => [...contactKeys.all, 'list'] as const,
};

/** The same key as the organization screen uses, so both read one cached list. */
const organizationsKey = ['organizations', 'list'] as const;

const CONTACTS = '/api/contacts/';
const contactPath = (id: string) => `/api/contacts/${encodeURIComponent(id)}`;
const interactionsPath = (id: string) => `${contactPath(id)}/past-interactions`;
const interactionPath = (id: string, interactionId: string) =>
  `${interactionsPath(id)}/${encodeURIComponent(interactionId)}`;

export const contactsQuery = () =>
  queryOptions({
    queryKey: contactKeys.list(),
    queryFn: ({ signal }) => api<Contact[]>(CONTACTS, { signal, query: { skip: 0, limit: MAX_PAGE_SIZE } }),
  });

export function useContacts() {
  return useQuery(contactsQuery());
}

/** GET /api/organizations: names for "Shared with: …" and the sharing checkboxes. */
export function useContactOrganizations() {
  return useQuery({
    queryKey: organizationsKey,
    queryFn: ({ signal }) => api<TOrganization[]>('/api/organizations', { signal }),
  });
}

/** Case-insensitive match on the name, the role or any e-mail (spec: Contacts Directory). */
export function matchesContact(contact: Contact, search: string): boolean {
  const needle = search.trim().toLowerCase();
  if (!needle) return true;
  if (contact.name.toLowerCase().includes(needle)) return true;
  if (contact.role?.toLowerCase().includes(needle)) return true;
  return contact.emails.some((e) => e.toLowerCase().includes(needle));
}

// ---------------------------------------------------------------------------------------------
// Cache updates (spec section 4: creating adds to the top, editing replaces, deleting removes)

function updateList(qc: QueryClient, fn: (list: Contact[]) => Contact[]) {
  qc.setQueryData<Contact[]>(contactKeys.list(), (old) => (old ? fn(old) : old));
}

export function prependContact(qc: QueryClient, contact: Contact) {
  updateList(qc, (list) => [contact, ...list.filter((c) => c.id !== contact.id)]);
}

export function replaceContact(qc: QueryClient, contact: Contact) {
  updateList(qc, (list) => list.map((c) => (c.id === contact.id ? contact : c)));
}

export function removeContact(qc: QueryClient, id: string) {
  updateList(qc, (list) => list.filter((c) => c.id !== id));
}

export function useCreateContact() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: TCreateContactRequest) => api<Contact>(CONTACTS, { method: 'POST', json: body }),
    onSuccess: (contact) => prependContact(qc, contact),
  });
}

export function useUpdateContact() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: TUpdateContactRequest }) =>
      api<Contact>(contactPath(id), { method: 'PATCH', json: body }),
    onSuccess: (contact) => replaceContact(qc, contact),
  });
}

export function useDeleteContact() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<void>(contactPath(id), { method: 'DELETE' }),
    onSuccess: (_data, id) => removeContact(qc, id),
  });
}

export function useSaveInteraction() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({
      contactId,
      interactionId,
      body,
    }: {
      contactId: string;
      interactionId?: string;
      body: TInteractionRequest;
    }) =>
      interactionId
        ? api<Contact>(interactionPath(contactId, interactionId), { method: 'PUT', json: body })
        : api<Contact>(interactionsPath(contactId), { method: 'POST', json: body }),
    onSuccess: (contact) => replaceContact(qc, contact),
  });
}

export function useDeleteInteraction() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ contactId, interactionId }: { contactId: string; interactionId: string }) =>
      api<void>(interactionPath(contactId, interactionId), { method: 'DELETE' }),
    onSuccess: (_data, { contactId, interactionId }) =>
      updateList(qc, (list) =>
        list.map((c) =>
          c.id === contactId
            ? { ...c, past_interactions: c.past_interactions.filter((i) => i.id !== interactionId) }
            : c,
        ),
      ),
  });
}

/** Names of the organizations a contact is shared with, the owner organization first. */
export function sharedOrgNames(contact: Contact, orgs: readonly OrganizationRef[] | undefined): string[] {
  const byId = new Map((orgs ?? []).map((o) => [o.id, o.name]));
  const fromContact = new Map(contact.shared_organizations.map((o) => [o.id, o.name]));
  const ids = [...contact.shared_org_ids].sort((a, b) =>
    a === contact.organization_id ? -1 : b === contact.organization_id ? 1 : 0,
  );
  return ids.map((id) => byId.get(id) ?? fromContact.get(id)).filter((n): n is string => Boolean(n));
}

/** Today as YYYY-MM-DD in the user's own time zone. */
export function todayIso(now = new Date()): string {
  const y = now.getFullYear();
  const m = String(now.getMonth() + 1).padStart(2, '0');
  const d = String(now.getDate()).padStart(2, '0');
  return `${y}-${m}-${d}`;
}

export function formatDate(iso: string): string {
  const [y, m, d] = iso.slice(0, 10).split('-').map(Number);
  if (!y || !m || !d) return iso;
  return new Date(y, m - 1, d).toLocaleDateString(undefined, {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
  });
}
