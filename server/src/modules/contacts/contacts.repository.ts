import { type ExpressionBuilder, sql } from 'kysely';
import type { Db } from '../../db/index.ts';
import { containsPattern, lowerLike } from '../../db/search.ts';
import type { ContactInteractionsTable, ContactsTable, Database } from '../../db/types.ts';

/**
 * Contacts with their owner's name and e-mail. This module reads `users`, `organizations` and
 * `organization_members` read-only for presentation joins (owner, shared organization names, linked
 * app users, the assignable people list): one query per page instead of a service call per row.
 */
function selectContacts(db: Db) {
  return db
    .selectFrom('contacts')
    .innerJoin('users as owner', 'owner.id', 'contacts.user_id')
    .selectAll('contacts')
    .select([
      'owner.email as owner_email',
      'owner.first_name as owner_first_name',
      'owner.last_name as owner_last_name',
    ]);
}

export type ContactRow = NonNullable<Awaited<ReturnType<typeof findContact>>>;

type ContactsEb = ExpressionBuilder<Database & { owner: Database['users'] }, 'contacts'>;

/** Visible: the caller's own contacts and those shared with their organizations (indexed branches). */
function visibleTo(eb: ContactsEb, userId: string, orgIds: readonly string[]) {
  const own = eb('contacts.user_id', '=', userId);
  if (!orgIds.length) return own;
  return eb.or([
    own,
    eb(
      'contacts.id',
      'in',
      eb
        .selectFrom('contact_shares')
        .select('contact_shares.contact_id')
        .where('contact_shares.organization_id', 'in', [...orgIds]),
    ),
  ]);
}

export interface ContactListOptions {
  userId: string;
  orgIds: readonly string[];
  search?: string;
  skip: number;
  limit: number;
}

/** A directory: by name (case-insensitive), then id. Search matches name, role or any e-mail. */
export function listContactsQuery(db: Db, o: ContactListOptions) {
  let q = selectContacts(db).where((eb) => visibleTo(eb, o.userId, o.orgIds));
  const pattern = containsPattern(o.search);
  if (pattern) {
    q = q.where((eb) =>
      eb.or([
        lowerLike('contacts.name', pattern),
        lowerLike('contacts.role', pattern),
        // emails is a JSON array of lower-case addresses: a substring match finds any of them
        lowerLike('contacts.emails', pattern),
      ]),
    );
  }
  return q.orderBy(sql`lower(contacts.name)`).orderBy('contacts.id').offset(o.skip).limit(o.limit);
}

export function listContacts(db: Db, o: ContactListOptions) {
  return listContactsQuery(db, o).execute();
}

export function findContact(db: Db, id: string) {
  return selectContacts(db).where('contacts.id', '=', id).executeTakeFirst();
}

export interface ShareRow {
  contact_id: string;
  organization_id: string;
  name: string;
}

/** Shared organizations (with names) of these contacts. */
export async function sharesOf(db: Db, contactIds: readonly string[]): Promise<Map<string, ShareRow[]>> {
  const out = new Map<string, ShareRow[]>(contactIds.map((id) => [id, []]));
  if (!contactIds.length) return out;
  const rows = await db
    .selectFrom('contact_shares')
    .innerJoin('organizations', 'organizations.id', 'contact_shares.organization_id')
    .select(['contact_shares.contact_id', 'contact_shares.organization_id', 'organizations.name'])
    .where('contact_shares.contact_id', 'in', [...contactIds])
    .orderBy('contact_shares.contact_id')
    .orderBy('organizations.name')
    .orderBy('contact_shares.organization_id')
    .execute();
  for (const r of rows) out.get(r.contact_id)?.push(r);
  return out;
}

/** Past interactions of these contacts, newest date first (at most `perContact` each). */
export async function interactionsOf(
  db: Db,
  contactIds: readonly string[],
  perContact: number,
): Promise<Map<string, ContactInteractionsTable[]>> {
  const out = new Map<string, ContactInteractionsTable[]>(contactIds.map((id) => [id, []]));
  if (!contactIds.length) return out;
  const rows = await db
    .selectFrom('contact_interactions')
    .selectAll()
    .where('contact_id', 'in', [...contactIds])
    .orderBy('contact_id')
    .orderBy('date', 'desc')
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .limit(contactIds.length * perContact)
    .execute();
  for (const r of rows) out.get(r.contact_id)?.push(r);
  return out;
}

/** App users by e-mail (users.email is unique and indexed). */
export async function usersByEmail(db: Db, emails: readonly string[]): Promise<Map<string, string>> {
  if (!emails.length) return new Map();
  const rows = await db
    .selectFrom('users')
    .select(['id', 'email'])
    .where('email', 'in', [...new Set(emails)])
    .execute();
  return new Map(rows.map((r) => [r.email, r.id]));
}

export async function insertContact(db: Db, row: ContactsTable): Promise<void> {
  await db.insertInto('contacts').values(row).execute();
}

export async function updateContact(db: Db, id: string, set: Partial<ContactsTable>): Promise<void> {
  await db.updateTable('contacts').set(set).where('id', '=', id).execute();
}

export async function deleteContact(db: Db, id: string): Promise<void> {
  await db.deleteFrom('contacts').where('id', '=', id).execute();
}

export async function replaceShares(db: Db, contactId: string, orgIds: readonly string[], now: string) {
  await db.deleteFrom('contact_shares').where('contact_id', '=', contactId).execute();
  if (orgIds.length) {
    await db
      .insertInto('contact_shares')
      .values(orgIds.map((organization_id) => ({ contact_id: contactId, organization_id, created_at: now })))
      .execute();
  }
}

export function findInteraction(db: Db, id: string) {
  return db.selectFrom('contact_interactions').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function countInteractions(db: Db, contactId: string): Promise<number> {
  const r = await db
    .selectFrom('contact_interactions')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('contact_id', '=', contactId)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

export async function insertInteraction(db: Db, row: ContactInteractionsTable): Promise<void> {
  await db.insertInto('contact_interactions').values(row).execute();
}

export async function updateInteraction(
  db: Db,
  id: string,
  set: Partial<ContactInteractionsTable>,
): Promise<void> {
  await db.updateTable('contact_interactions').set(set).where('id', '=', id).execute();
}

export async function deleteInteraction(db: Db, id: string): Promise<void> {
  await db.deleteFrom('contact_interactions').where('id', '=', id).execute();
}

// ---- the people the caller can assign to or message ----

export interface AssignableOptions {
  orgIds: readonly string[];
  excludeUserId: string;
  search?: string;
  skip: number;
  limit: number;
}

/**
 * Approved app users (not waitlisted) with a membership (not an invite) in one of these organizations,
 * by name. Served by the organization_members (organization_id, email) index and the users key.
 */
export function assignableUsersQuery(db: Db, o: AssignableOptions) {
  let q = db
    .selectFrom('users')
    .select(['users.id', 'users.email', 'users.first_name', 'users.last_name', 'users.role'])
    .where('users.user_level', '!=', 'waitlisted')
    .where('users.id', '!=', o.excludeUserId)
    .where(
      'users.id',
      'in',
      db
        .selectFrom('organization_members')
        .select('organization_members.user_id')
        .where('organization_members.organization_id', 'in', [...o.orgIds])
        .where('organization_members.is_invite', '=', 0)
        .$narrowType<{ user_id: string }>(),
    );
  const pattern = containsPattern(o.search);
  if (pattern) {
    q = q.where((eb) =>
      eb.or([
        eb(
          sql`lower(coalesce(users.first_name, '') || ' ' || coalesce(users.last_name, ''))`,
          'like',
          sql`${pattern} escape '\\'`,
        ),
        lowerLike('users.email', pattern),
        lowerLike('users.role', pattern),
      ]),
    );
  }
  return q
    .orderBy(sql`lower(coalesce(users.first_name, users.email))`)
    .orderBy(sql`lower(coalesce(users.last_name, ''))`)
    .orderBy('users.id')
    .offset(o.skip)
    .limit(o.limit);
}

export function assignableUsers(db: Db, o: AssignableOptions) {
  return assignableUsersQuery(db, o).execute();
}

/** Memberships (not invites) of these users within these organizations. */
export async function membershipsWithin(
  db: Db,
  userIds: readonly string[],
  orgIds: readonly string[],
): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>(userIds.map((id) => [id, []]));
  if (!userIds.length || !orgIds.length) return out;
  const rows = await db
    .selectFrom('organization_members')
    .select(['user_id', 'organization_id'])
    .where('user_id', 'in', [...userIds])
    .where('organization_id', 'in', [...orgIds])
    .where('is_invite', '=', 0)
    .orderBy('organization_id')
    .execute();
  for (const r of rows) if (r.user_id) out.get(r.user_id)?.push(r.organization_id);
  return out;
}
