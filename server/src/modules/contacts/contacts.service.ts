import { randomUUID } from 'node:crypto';
import {
  citationUrl,
  contactInitial,
  MAX_INTERACTIONS_PER_CONTACT,
  type TAssignableUser,
  type TContact,
  type TRecordCitation,
  type ZAssignableQuery,
  type ZContactListQuery,
  type ZCreateContactRequest,
  type ZInteractionRequest,
  type ZUpdateContactRequest,
} from '@cc/contract';
import type { z } from 'zod';
import { nowIso, withTx } from '../../db/index.ts';
import type { ContactsTable } from '../../db/types.ts';
import { assertMemberOf, assertShareable } from '../../platform/access.ts';
import type { AuthUser } from '../../platform/auth/authenticate.ts';
import type { AppContext } from '../../platform/context.ts';
import { badRequest, forbidden, notFound } from '../../platform/errors.ts';
import { loadViewer, loadWithRights, type Viewer, type ViewerScope } from '../../platform/viewer.ts';
import { canShareContact, contactRights } from './contacts.policy.ts';
import { parseList, presentAssignable, presentContact } from './contacts.presenter.ts';
import { ANY_VERSION, nextVersion, type Precondition } from '../../platform/concurrency.ts';
import { listContactPage } from './contacts.list-entry.ts';
import * as repo from './contacts.repository.ts';

/** The contact, its shared organization ids and the caller's rights; 404 when the caller may not see it. */
async function load(ctx: AppContext, caller: AuthUser, id: string) {
  const { row, shares, viewer, rights } = await loadWithRights(ctx, caller, {
    find: () => repo.findContact(ctx.db, id),
    shares: async () => ((await repo.sharesOf(ctx.db, [id])).get(id) ?? []).map((s) => s.organization_id),
    rights: contactRights,
    missing: 'Contact not found',
  });
  return { row, viewer, shared: shares, ...rights };
}

async function editable(ctx: AppContext, caller: AuthUser, id: string) {
  const c = await load(ctx, caller, id);
  if (!c.canEdit) throw forbidden('You cannot edit this contact.');
  return c;
}

/** Contacts as the API shows them to this viewer (also what the list-entry tests compare a page with). */
export async function presentRows(ctx: AppContext, viewer: Viewer, rows: repo.ContactRow[]) {
  const ids = rows.map((r) => r.id);
  const [shares, interactions] = await Promise.all([
    repo.sharesOf(ctx.db, ids),
    repo.interactionsOf(ctx.db, ids, MAX_INTERACTIONS_PER_CONTACT),
  ]);
  const emails = rows.map((r) => parseList(r.emails));
  const users = await repo.usersByEmail(ctx.db, emails.flat());
  return rows.map((row, i) => {
    const s = shares.get(row.id) ?? [];
    const linked = emails[i].map((e) => users.get(e)).find((id) => id !== undefined) ?? null;
    const r = contactRights(
      row,
      s.map((x) => x.organization_id),
      viewer,
    );
    return presentContact(row, {
      shares: s,
      interactions: interactions.get(row.id) ?? [],
      linkedUserId: linked,
      canEdit: r.canEdit,
      canDelete: r.canDelete,
    });
  });
}

async function present(ctx: AppContext, caller: AuthUser, id: string): Promise<TContact> {
  const { row, viewer } = await load(ctx, caller, id);
  const [contact] = await presentRows(ctx, viewer, [row]);
  return contact;
}

const sameSet = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((x) => b.includes(x));

/** A page of contacts as JSON text (an array of TContact): stored list entries, completed per read. */
export async function listContactsText(
  ctx: AppContext,
  caller: AuthUser,
  q: z.output<typeof ZContactListQuery>,
): Promise<string> {
  const viewer = await loadViewer(ctx, caller);
  return listContactPage(ctx, viewer, {
    userId: viewer.id,
    orgIds: viewer.orgIds,
    search: q.search,
    skip: q.skip,
    limit: q.limit,
  });
}

/** A page of contacts (for callers other than the REST route, which sends {@link listContactsText}). */
export async function listContacts(
  ctx: AppContext,
  caller: AuthUser,
  q: z.output<typeof ZContactListQuery>,
): Promise<TContact[]> {
  return JSON.parse(await listContactsText(ctx, caller, q));
}

export const getContact = present;

export async function createContact(
  ctx: AppContext,
  caller: AuthUser,
  body: z.output<typeof ZCreateContactRequest>,
): Promise<TContact> {
  const viewer = await loadViewer(ctx, caller);
  assertMemberOf(viewer.levels, body.organization_id);
  const shares = [
    ...new Set([...(body.shared_org_ids ?? []), ...(body.organization_id ? [body.organization_id] : [])]),
  ];
  assertShareable(viewer.levels, shares);
  const now = nowIso();
  const id = randomUUID();
  await withTx(ctx.db, async (trx) => {
    await repo.insertContact(trx, {
      id,
      user_id: caller.id,
      organization_id: body.organization_id ?? null,
      name: body.name,
      role: body.role ?? null,
      avatar_initial: body.avatar_initial?.charAt(0).toUpperCase() || contactInitial(body.name),
      emails: JSON.stringify(body.emails ?? []),
      phones: JSON.stringify(body.phones ?? []),
      notes: body.notes ?? null,
      created_at: now,
      updated_at: now,
    });
    await repo.replaceShares(trx, id, shares, now);
  });
  return present(ctx, caller, id);
}

export async function updateContact(
  ctx: AppContext,
  caller: AuthUser,
  id: string,
  body: z.output<typeof ZUpdateContactRequest>,
  pre: Precondition = ANY_VERSION,
): Promise<TContact> {
  const { row, viewer, shared, ...rights } = await editable(ctx, caller, id);
  pre.check(row.updated_at);
  const orgChange = body.organization_id !== undefined && body.organization_id !== row.organization_id;
  const organizationId = body.organization_id !== undefined ? body.organization_id : row.organization_id;
  let nextShares: string[] | null = null;
  if (body.shared_org_ids !== undefined || orgChange) {
    const requested = body.shared_org_ids ?? shared;
    nextShares = [...new Set([...requested, ...(organizationId ? [organizationId] : [])])];
    if (!sameSet(nextShares, shared) || orgChange) {
      // Sharing decides who sees the contact: the owner's call.
      if (!canShareContact(rights))
        throw forbidden('Only the owner can change who this contact is shared with.');
      if (orgChange) assertMemberOf(viewer.levels, organizationId);
      assertShareable(viewer.levels, nextShares, shared);
    } else {
      nextShares = null; // the same set sent back: nothing to change
    }
  }
  const set: Partial<ContactsTable> = {};
  if (body.name !== undefined) {
    set.name = body.name;
    if (body.avatar_initial === undefined) set.avatar_initial = contactInitial(body.name);
  }
  if (body.avatar_initial !== undefined) {
    set.avatar_initial =
      body.avatar_initial?.charAt(0).toUpperCase() || contactInitial(body.name ?? row.name);
  }
  if (body.role !== undefined) set.role = body.role;
  if (body.emails !== undefined) set.emails = JSON.stringify(body.emails);
  if (body.phones !== undefined) set.phones = JSON.stringify(body.phones);
  if (body.notes !== undefined) set.notes = body.notes;
  if (orgChange) set.organization_id = organizationId;
  const now = nextVersion(row.updated_at);
  await withTx(ctx.db, async (trx) => {
    await repo.updateContact(trx, id, { ...set, updated_at: now });
    if (nextShares) await repo.replaceShares(trx, id, nextShares, now);
  });
  return present(ctx, caller, id);
}

export async function deleteContact(ctx: AppContext, caller: AuthUser, id: string): Promise<void> {
  const { canDelete } = await load(ctx, caller, id);
  if (!canDelete) throw forbidden('Only the owner can delete this contact.');
  await repo.deleteContact(ctx.db, id); // shares and past interactions cascade
}

// ---- past interactions: edited by whoever may edit the contact ----

export async function addInteraction(
  ctx: AppContext,
  caller: AuthUser,
  contactId: string,
  body: z.output<typeof ZInteractionRequest>,
): Promise<TContact> {
  await editable(ctx, caller, contactId);
  if ((await repo.countInteractions(ctx.db, contactId)) >= MAX_INTERACTIONS_PER_CONTACT) {
    throw badRequest(`A contact can hold at most ${MAX_INTERACTIONS_PER_CONTACT} past interactions.`);
  }
  const now = nowIso();
  await withTx(ctx.db, async (trx) => {
    await repo.insertInteraction(trx, {
      id: randomUUID(),
      contact_id: contactId,
      date: body.date,
      summary: body.summary,
      notes: body.notes ?? null,
      created_at: now,
      updated_at: now,
    });
    await repo.updateContact(trx, contactId, { updated_at: now });
  });
  return present(ctx, caller, contactId);
}

async function ownInteraction(ctx: AppContext, contactId: string, interactionId: string) {
  const i = await repo.findInteraction(ctx.db, interactionId);
  if (!i || i.contact_id !== contactId) throw notFound('Interaction not found');
  return i;
}

export async function updateInteraction(
  ctx: AppContext,
  caller: AuthUser,
  contactId: string,
  interactionId: string,
  body: z.output<typeof ZInteractionRequest>,
  pre: Precondition = ANY_VERSION,
): Promise<TContact> {
  await editable(ctx, caller, contactId);
  const current = await ownInteraction(ctx, contactId, interactionId);
  pre.check(current.updated_at);
  const now = nextVersion(current.updated_at);
  await withTx(ctx.db, async (trx) => {
    await repo.updateInteraction(trx, interactionId, {
      date: body.date,
      summary: body.summary,
      ...(body.notes !== undefined ? { notes: body.notes } : {}),
      updated_at: now,
    });
    await repo.updateContact(trx, contactId, { updated_at: now });
  });
  return present(ctx, caller, contactId);
}

export async function deleteInteraction(
  ctx: AppContext,
  caller: AuthUser,
  contactId: string,
  interactionId: string,
): Promise<void> {
  await editable(ctx, caller, contactId);
  await ownInteraction(ctx, contactId, interactionId);
  const now = nowIso();
  await withTx(ctx.db, async (trx) => {
    await repo.deleteInteraction(trx, interactionId);
    await repo.updateContact(trx, contactId, { updated_at: now });
  });
}

/**
 * The other app users the caller can assign tasks to or message: approved members (not invites, not
 * waitlisted) of the caller's organizations, each with the organizations they share with the caller.
 * The caller is not listed (a task form offers "me" itself).
 */
export async function listAssignable(
  ctx: AppContext,
  caller: AuthUser,
  q: z.output<typeof ZAssignableQuery>,
): Promise<TAssignableUser[]> {
  const { orgIds } = await loadViewer(ctx, caller);
  if (!orgIds.length) return [];
  const rows = await repo.assignableUsers(ctx.db, {
    orgIds,
    excludeUserId: caller.id,
    search: q.search,
    skip: q.skip,
    limit: q.limit,
  });
  const memberships = await repo.membershipsWithin(
    ctx.db,
    rows.map((r) => r.id),
    orgIds,
  );
  return rows.map((r) => presentAssignable(r, memberships.get(r.id) ?? []));
}

/** Citations of the contacts (of these ids) the viewer may see, by id; the others are left out. */
export async function contactCitations(
  ctx: AppContext,
  viewer: ViewerScope,
  ids: readonly string[],
): Promise<Map<string, TRecordCitation>> {
  const rows = await repo.visibleContactNames(ctx.db, viewer, ids);
  return new Map(
    rows.map((r) => [r.id, { type: 'contact', id: r.id, title: r.name, url: citationUrl('contact', r.id) }]),
  );
}
