import { MAX_INTERACTIONS_PER_CONTACT } from '@cc/contract';
import { type ExpressionBuilder, PostgresAdapter, type SelectQueryBuilder, sql } from 'kysely';
import { type BranchPageParams, branchPageParams } from '../../db/branch-page.ts';
import { type Db, withTx } from '../../db/index.ts';
import { preparedQuery } from '../../db/prepared-query.ts';
import { containsPattern, lowerLike } from '../../db/search.ts';
import type { ContactInteractionsTable, ContactsTable, Database } from '../../db/types.ts';
import type { ViewerScope } from '../../platform/viewer.ts';
import { contactVisibilityBranches, visibleContacts } from './contacts.policy.ts';
import { lockForRender } from '../../platform/list-entries.ts';
import { contactListJson } from './contacts.presenter.ts';

/** The contact's columns (not its stored list entry, which only the list reads). */
const CONTACT_COLUMNS = [
  'contacts.id',
  'contacts.user_id',
  'contacts.organization_id',
  'contacts.name',
  'contacts.role',
  'contacts.avatar_initial',
  'contacts.emails',
  'contacts.phones',
  'contacts.notes',
  'contacts.created_at',
  'contacts.updated_at',
] as const;

/**
 * Contacts with their owner's name and e-mail. This module reads `users`, `organizations` and
 * `organization_members` read-only for presentation joins (owner, shared organization names, linked
 * app users, the assignable people list): one query per page instead of a service call per row.
 */
function selectContacts(db: Db) {
  return db
    .selectFrom('contacts')
    .innerJoin('users as owner', 'owner.id', 'contacts.user_id')
    .select(CONTACT_COLUMNS)
    .select([
      'owner.email as owner_email',
      'owner.first_name as owner_first_name',
      'owner.last_name as owner_last_name',
    ]);
}

export type ContactRow = NonNullable<Awaited<ReturnType<typeof findContact>>>;

export interface ContactListOptions {
  userId: string;
  orgIds: readonly string[];
  search?: string;
  skip: number;
  limit: number;
}

/** Name, role or any e-mail contains the search (emails is a JSON array of lower-case addresses). */
function matches(eb: ExpressionBuilder<Database, 'contacts'>, pattern: string) {
  return eb.or([
    lowerLike('contacts.name', pattern),
    lowerLike('contacts.role', pattern),
    lowerLike('contacts.emails', pattern),
  ]);
}

/** The values of a list query (see {@link preparedQuery}): the shared ones of a branch-merged list. */
type ContactPageParams = BranchPageParams;

const pageParams = (db: Db, o: ContactListOptions): ContactPageParams => branchPageParams(db, o);

/** The caller's own contacts, in directory order from contacts_user_name_idx (user_id, lower(name), id). */
function ownBranch(db: Db, userId: string, p: ContactPageParams) {
  const pattern = p.pattern;
  return db
    .selectFrom('contacts')
    .select(['contacts.id as id', sql<string>`lower(contacts.name)`.as('k')])
    .where('contacts.user_id', '=', userId)
    .$if(pattern !== null, (q) => q.where((eb) => matches(eb, pattern as string)));
}

/**
 * The contacts shared with one organization, in directory order from contact_shares_list_idx
 * (organization_id, contact_name_key, contact_id); a search reads each contact by its key.
 */
function sharedBranch(db: Db, orgId: string, p: ContactPageParams) {
  const pattern = p.pattern;
  return db
    .selectFrom('contact_shares')
    .select(['contact_shares.contact_id as id', sql<string>`contact_shares.contact_name_key`.as('k')])
    .where('contact_shares.organization_id', '=', orgId)
    .$if(pattern !== null, (q) =>
      q.where(({ exists, selectFrom }) =>
        exists(
          selectFrom('contacts')
            .select('contacts.id')
            .whereRef('contacts.id', '=', 'contact_shares.contact_id')
            .where((eb) => matches(eb, pattern as string)),
        ),
      ),
    );
}

/**
 * Visible: the caller's own contacts and those shared with their organizations. On SQLite the
 * branches form one compound SELECT (UNION, which also drops a contact shared with two of my
 * organizations) in directory order: SQLite merges the branches as each reads its index in order and
 * stops once the page is full, with no sort. PostgreSQL does not merge a UNION in order, so there each
 * branch gives at most skip + limit rows in directory order (enough for any row of the page), then the
 * union is deduplicated, sorted and cut.
 */
export function contactPageQuery(db: Db, p: ContactPageParams) {
  // Every branch selects the same two columns (from contacts or from contact_shares' copy of the key).
  type Branch = SelectQueryBuilder<Database, 'contacts', { id: string; k: string }>;
  // The contact policy's branches; the shared one is split into a branch per organization.
  const parts = contactVisibilityBranches({ id: p.userId, orgIds: p.orgIds }).flatMap((b): Branch[] =>
    b.via === 'contacts.user_id'
      ? [ownBranch(db, b.userId, p) as unknown as Branch]
      : b.orgIds.map((org) => sharedBranch(db, org, p) as unknown as Branch),
  );
  if (p.sqlite) {
    const union = parts.slice(1).reduce((all, b) => all.union(b), parts[0]);
    return union.orderBy('k').orderBy('id').limit(p.limit).offset(p.skip);
  }
  const branches = parts.map((b, i) =>
    db.selectFrom(b.orderBy('k').orderBy('id').limit(p.n).as(`b${i}`)).selectAll(),
  );
  const union = branches.slice(1).reduce((all, b) => all.unionAll(b), branches[0]);
  return db
    .selectFrom(union.as('u'))
    .select(['u.id', 'u.k'])
    .distinct()
    .orderBy('u.k')
    .orderBy('u.id')
    .offset(p.skip)
    .limit(p.limit);
}

/** A directory: by name (case-insensitive), then id. Search matches name, role or any e-mail. */
function pageWithContacts(db: Db, p: ContactPageParams) {
  return db
    .selectFrom(contactPageQuery(db, p).as('page'))
    .innerJoin('contacts', 'contacts.id', 'page.id')
    .innerJoin('users as owner', 'owner.id', 'contacts.user_id')
    .select(CONTACT_COLUMNS)
    .select([
      'owner.email as owner_email',
      'owner.first_name as owner_first_name',
      'owner.last_name as owner_last_name',
    ])
    .orderBy('page.k')
    .orderBy('page.id');
}

/**
 * A page as rows, built plainly for these options: the query-plan tests read it, and the list-entry
 * tests present its rows afresh to compare a page of stored entries with.
 */
export const listContactsQuery = (db: Db, o: ContactListOptions) => pageWithContacts(db, pageParams(db, o));

/**
 * One page as stored list entries (contacts.list_json, NULL where forgotten) with what the read adds:
 * the linked app user and, when the caller's rights can depend on them, the shared organization ids
 * (comma-separated).
 */
function pageEntries(db: Db, p: ContactPageParams & { withShares: boolean }) {
  return db
    .selectFrom(contactPageQuery(db, p).as('page'))
    .innerJoin('contacts', 'contacts.id', 'page.id')
    .select([
      'contacts.id',
      'contacts.list_json',
      'contacts.user_id',
      linkedUser(db).as('linked_user_id'),
      p.withShares ? sharedOrgList(db).as('shared_org_list') : sql<string | null>`null`.as('shared_org_list'),
    ])
    .orderBy('page.k')
    .orderBy('page.id');
}

/**
 * The app user the contact's first matching e-mail belongs to (emails is a JSON array, in the
 * contact's order; users.email is unique and indexed), in the page's own read: a second query per page
 * for the page's e-mails was a round trip of its own (on PostgreSQL a third of a page's statements).
 */
function linkedUser(db: Db) {
  return db.getExecutor().adapter instanceof PostgresAdapter
    ? sql<
        string | null
      >`(select u.id from jsonb_array_elements(case when jsonb_typeof(contacts.emails::jsonb) = 'array' then contacts.emails::jsonb else '[]'::jsonb end) with ordinality as j(v, k) join users u on u.email = (j.v #>> '{}') where jsonb_typeof(j.v) = 'string' order by j.k limit 1)`
    : sql<
        string | null
      >`(case when json_valid(contacts.emails) then (select u.id from json_each(contacts.emails) j join users u on u.email = j.value where j.type = 'text' order by j.key limit 1) end)`;
}

function sharedOrgList(db: Db) {
  return db.getExecutor().adapter instanceof PostgresAdapter
    ? sql<
        string | null
      >`(select string_agg(s.organization_id, ',') from contact_shares s where s.contact_id = contacts.id)`
    : sql<
        string | null
      >`(select group_concat(s.organization_id, ',') from contact_shares s where s.contact_id = contacts.id)`;
}

const entryPage = preparedQuery(pageEntries, { offThread: true });

export interface ContactListEntry {
  id: string;
  list_json: string | null;
  user_id: string;
  linked_user_id: string | null;
  shared_org_list: string | null;
}

/** A page of contacts as their stored list entries (see {@link pageEntries}). */
export function listContactEntries(
  db: Db,
  o: ContactListOptions & { withShares: boolean },
): Promise<ContactListEntry[]> {
  return entryPage(db, { ...pageParams(db, o), withShares: o.withShares }) as Promise<ContactListEntry[]>;
}

/** These contacts with their owner, in no particular order. */
export function findContacts(db: Db, ids: readonly string[]): Promise<ContactRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return selectContacts(db)
    .where('contacts.id', 'in', [...ids])
    .execute();
}

/** Renders and stores these contacts' list entries (in the writer's transaction or its own: lockForRender). */
export async function renderListEntries(db: Db, ids: readonly string[]): Promise<number> {
  const sorted = await lockForRender(db, 'contacts', ids);
  if (sorted.length === 0) return 0;
  const [rows, shares, interactions] = await Promise.all([
    findContacts(db, sorted),
    sharesOf(db, sorted),
    interactionsOf(db, sorted, MAX_INTERACTIONS_PER_CONTACT),
  ]);
  for (const row of rows) {
    const list_json = contactListJson(row, shares.get(row.id) ?? [], interactions.get(row.id) ?? []);
    await db.updateTable('contacts').set({ list_json }).where('id', '=', row.id).execute();
  }
  return rows.length;
}

/** Up to `limit` contacts whose list entry the database forgot (contacts_list_json_missing_idx). */
export async function contactsWithoutListEntry(db: Db, limit: number): Promise<string[]> {
  const rows = await db
    .selectFrom('contacts')
    .select('id')
    .where('list_json', 'is', null)
    .limit(limit)
    .execute();
  return rows.map((r) => r.id);
}

export function findContact(db: Db, id: string) {
  return selectContacts(db).where('contacts.id', '=', id).executeTakeFirst();
}

export interface ShareRow {
  contact_id: string;
  organization_id: string;
  name: string;
}

const sharesQuery = preparedQuery((db, p: { ids: string[] }) =>
  db
    .selectFrom('contact_shares')
    .innerJoin('organizations', 'organizations.id', 'contact_shares.organization_id')
    .select(['contact_shares.contact_id', 'contact_shares.organization_id', 'organizations.name'])
    .where('contact_shares.contact_id', 'in', p.ids)
    .orderBy('contact_shares.contact_id')
    .orderBy('organizations.name')
    .orderBy('contact_shares.organization_id'),
);

/** Shared organizations (with names) of these contacts (read for every list page: prepared). */
export async function sharesOf(db: Db, contactIds: readonly string[]): Promise<Map<string, ShareRow[]>> {
  const out = new Map<string, ShareRow[]>(contactIds.map((id) => [id, []]));
  if (!contactIds.length) return out;
  const rows = await sharesQuery(db, { ids: [...contactIds] });
  for (const r of rows) out.get(r.contact_id)?.push(r);
  return out;
}

const interactionsQuery = preparedQuery((db, p: { ids: string[]; max: number }) =>
  db
    .selectFrom('contact_interactions')
    .selectAll()
    .where('contact_id', 'in', p.ids)
    .orderBy('contact_id')
    .orderBy('date', 'desc')
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .limit(p.max),
);

/** Past interactions of these contacts, newest date first (at most `perContact` each; prepared). */
export async function interactionsOf(
  db: Db,
  contactIds: readonly string[],
  perContact: number,
): Promise<Map<string, ContactInteractionsTable[]>> {
  const out = new Map<string, ContactInteractionsTable[]>(contactIds.map((id) => [id, []]));
  if (!contactIds.length) return out;
  const rows = await interactionsQuery(db, { ids: [...contactIds], max: contactIds.length * perContact });
  for (const r of rows) out.get(r.contact_id)?.push(r);
  return out;
}

const usersByEmailQuery = preparedQuery((db, p: { emails: string[] }) =>
  db.selectFrom('users').select(['id', 'email']).where('email', 'in', p.emails),
);

/** App users by e-mail (users.email is unique and indexed; prepared). */
export async function usersByEmail(db: Db, emails: readonly string[]): Promise<Map<string, string>> {
  if (!emails.length) return new Map();
  const rows = await usersByEmailQuery(db, { emails: [...new Set(emails)] });
  return new Map(rows.map((r) => [r.email, r.id]));
}

export async function insertContact(db: Db, row: ContactsTable): Promise<void> {
  await db.insertInto('contacts').values(row).execute();
}

/**
 * Updates the contact (a new name is copied onto its share rows) and renders its list entry again, in
 * one transaction. Every change to a contact's shares or past interactions ends with this call.
 */
export async function updateContact(db: Db, id: string, set: Partial<ContactsTable>): Promise<void> {
  await withTx(db, async (trx) => {
    await trx.updateTable('contacts').set(set).where('id', '=', id).execute();
    if (set.name !== undefined) await syncNameKey(trx, id);
    await renderListEntries(trx, [id]);
  });
}

/** contact_shares.contact_name_key = lower(name) by the database's own lower(), as the own branch sorts. */
async function syncNameKey(db: Db, contactId: string): Promise<void> {
  await db
    .updateTable('contact_shares')
    .set({
      contact_name_key: sql<string>`(select lower(c.name) from contacts c where c.id = contact_shares.contact_id)`,
    })
    .where('contact_id', '=', contactId)
    .execute();
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
    await syncNameKey(db, contactId);
  }
  await renderListEntries(db, [contactId]);
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

/** Of these contacts, the ids and names of those the viewer may see (contacts.policy). */
export function visibleContactNames(db: Db, viewer: ViewerScope, ids: readonly string[]) {
  if (ids.length === 0) return Promise.resolve([] as { id: string; name: string }[]);
  return db
    .selectFrom('contacts')
    .select(['contacts.id', 'contacts.name'])
    .where('contacts.id', 'in', [...ids])
    .where(visibleContacts(viewer))
    .execute();
}
