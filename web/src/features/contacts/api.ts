import type {
  TContact,
  TCreateContactRequest,
  TInteractionRequest,
  TOrganization,
  TUpdateContactRequest,
} from '@cc/contract';
import {
  type InfiniteData,
  infiniteQueryOptions,
  keepPreviousData,
  type QueryClient,
  useInfiniteQuery,
  useMutation,
  useQueryClient,
} from '@tanstack/react-query';
import { useMemo } from 'react';
import { api } from '../../lib/api';
import { formatDay } from '../../lib/format';

export type Contact = TContact;
export type OrganizationRef = Pick<TOrganization, 'id' | 'name' | 'my_access_level'>;

const CONTACTS = '/api/contacts/';
const contactPath = (id: string) => `/api/contacts/${encodeURIComponent(id)}`;
const interactionsPath = (id: string) => `${contactPath(id)}/past-interactions`;
const interactionPath = (id: string, interactionId: string) =>
  `${interactionsPath(id)}/${encodeURIComponent(interactionId)}`;

/** Contacts per request: the page loads the next ones on demand (ARCHITECTURE.md section 8). */
export const CONTACTS_PAGE_SIZE = 50;

export const contactKeys = {
  all: ['contacts'] as const,
  lists: () => [...contactKeys.all, 'list'] as const,
  list: (search: string) => [...contactKeys.lists(), search] as const,
};

/** One page of the directory as the server sent it; `nextSkip` is null after the last page. */
export interface ContactsPage {
  items: Contact[];
  nextSkip: number | null;
}

type ContactsData = InfiniteData<ContactsPage, number>;

/** Directory order, searched on the server (name, role or any e-mail, case-insensitive). */
export const contactsQuery = (search: string) =>
  infiniteQueryOptions({
    queryKey: contactKeys.list(search),
    initialPageParam: 0,
    queryFn: async ({ signal, pageParam }): Promise<ContactsPage> => {
      const items = await api<Contact[]>(CONTACTS, {
        signal,
        query: { search: search || undefined, skip: pageParam, limit: CONTACTS_PAGE_SIZE },
      });
      return { items, nextSkip: items.length < CONTACTS_PAGE_SIZE ? null : pageParam + CONTACTS_PAGE_SIZE };
    },
    getNextPageParam: (last) => last.nextSkip ?? undefined,
  });

/** The contacts matching `search`, page after page; `contacts` is the loaded pages without repeats. */
export function useContacts(search: string) {
  const query = useInfiniteQuery({ ...contactsQuery(search), placeholderData: keepPreviousData });
  const contacts = useMemo(() => {
    const seen = new Set<string>();
    return (query.data?.pages ?? [])
      .flatMap((p) => p.items)
      .filter((c) => !seen.has(c.id) && Boolean(seen.add(c.id)));
  }, [query.data]);
  return { ...query, contacts };
}

/** Case-insensitive match on the name, the role or any e-mail, as the server's search. */
export function matchesContact(contact: Contact, search: string): boolean {
  const needle = search.trim().toLowerCase();
  if (!needle) return true;
  if (contact.name.toLowerCase().includes(needle)) return true;
  if (contact.role?.toLowerCase().includes(needle)) return true;
  return contact.emails.some((e) => e.toLowerCase().includes(needle));
}

// ---------------------------------------------------------------------------------------------
// Cache updates (spec section 4: creating adds to the top, editing replaces, deleting removes), in
// every cached search.

function updateLists(qc: QueryClient, fn: (data: ContactsData, search: string) => ContactsData) {
  for (const [key, data] of qc.getQueriesData<ContactsData>({ queryKey: contactKeys.lists() })) {
    if (data) qc.setQueryData<ContactsData>(key, fn(data, String(key[2] ?? '')));
  }
}

const mapItems = (data: ContactsData, fn: (items: Contact[], index: number) => ContactsPage['items']) => ({
  ...data,
  pages: data.pages.map((p, i) => ({ ...p, items: fn(p.items, i) })),
});

/** On top of the first page of every cached list it matches (it may come again later in name order). */
export function prependContact(qc: QueryClient, contact: Contact) {
  updateLists(qc, (data, search) =>
    matchesContact(contact, search)
      ? mapItems(data, (items, i) => {
          const rest = items.filter((c) => c.id !== contact.id);
          return i === 0 ? [contact, ...rest] : rest;
        })
      : data,
  );
}

export function replaceContact(qc: QueryClient, contact: Contact) {
  updateLists(qc, (data) => mapItems(data, (items) => items.map((c) => (c.id === contact.id ? contact : c))));
}

/** Removes it; the next page starts one row earlier, as the server's list has lost a row before it. */
export function removeContact(qc: QueryClient, id: string) {
  updateLists(qc, (data) => {
    if (!data.pages.some((p) => p.items.some((c) => c.id === id))) return data;
    return {
      ...data,
      pages: data.pages.map((p) => ({
        items: p.items.filter((c) => c.id !== id),
        nextSkip: p.nextSkip === null ? null : p.nextSkip - 1,
      })),
    };
  });
}

export function useCreateContact() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: TCreateContactRequest) => api<Contact>(CONTACTS, { method: 'POST', json: body }),
    onSuccess: (contact) => prependContact(qc, contact),
  });
}

/** One contact as stored now (the edit form's fresh version after a refused save). */
export const readContact = (id: string) => api<Contact>(contactPath(id));

export function useUpdateContact() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body, ifMatch }: { id: string; body: TUpdateContactRequest; ifMatch?: string }) =>
      api<Contact>(contactPath(id), { method: 'PATCH', json: body, ifMatch }),
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
      updateLists(qc, (data) =>
        mapItems(data, (items) =>
          items.map((c) =>
            c.id === contactId
              ? { ...c, past_interactions: c.past_interactions.filter((i) => i.id !== interactionId) }
              : c,
          ),
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

/** An interaction's YYYY-MM-DD date in the reader's locale (the app's one date form). */
export const formatDate = (iso: string): string => formatDay(iso);
