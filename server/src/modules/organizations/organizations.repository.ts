import type { Insertable } from 'kysely';
import { type Db, nowIso } from '../../db/index.ts';
import { preparedQuery } from '../../db/prepared-query.ts';
import type { OrganizationMembersTable, OrganizationsTable } from '../../db/types.ts';

export function findOrganization(db: Db, id: string) {
  return db.selectFrom('organizations').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Organizations with member counts; all of them (platform admin) or those the user belongs to. */
export function listOrganizations(db: Db, opts: { memberUserId?: string; limit: number }) {
  let q = db.selectFrom('organizations').select((eb) => [
    'organizations.id',
    'organizations.name',
    'organizations.created_at',
    'organizations.updated_at',
    eb
      .selectFrom('organization_members as m')
      .select((e) => e.fn.countAll<number>().as('n'))
      .whereRef('m.organization_id', '=', 'organizations.id')
      .as('member_count'),
  ]);
  if (opts.memberUserId) {
    const uid = opts.memberUserId;
    q = q.where((eb) =>
      eb.exists(
        eb
          .selectFrom('organization_members as mine')
          .select('mine.id')
          .whereRef('mine.organization_id', '=', 'organizations.id')
          .where('mine.user_id', '=', uid),
      ),
    );
  }
  return q.orderBy('organizations.name').orderBy('organizations.id').limit(opts.limit).execute();
}

/** The user's memberships (organization id → access level). */
const memberships = preparedQuery((db, p: { userId: string }) =>
  db
    .selectFrom('organization_members')
    .select(['organization_id', 'org_access_level'])
    .where('user_id', '=', p.userId),
);

/** Organization id → org_access_level of the user's memberships (read on most requests: prepared). */
export async function membershipsOf(db: Db, userId: string): Promise<Map<string, string>> {
  const rows = await memberships(db, { userId });
  return new Map(rows.map((r) => [r.organization_id, r.org_access_level]));
}

export function findMembership(db: Db, orgId: string, userId: string) {
  return db
    .selectFrom('organization_members')
    .selectAll()
    .where('organization_id', '=', orgId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

export function findMembershipByEmail(db: Db, orgId: string, email: string) {
  return db
    .selectFrom('organization_members')
    .selectAll()
    .where('organization_id', '=', orgId)
    .where('email', '=', email)
    .executeTakeFirst();
}

export function findMemberRow(db: Db, memberId: string) {
  return db.selectFrom('organization_members').selectAll().where('id', '=', memberId).executeTakeFirst();
}

const MEMBER_LIMIT = 500;

export function listMembers(db: Db, orgId: string) {
  return db
    .selectFrom('organization_members as m')
    .leftJoin('users as u', 'u.id', 'm.user_id')
    .select([
      'm.id',
      'm.user_id',
      'm.email',
      'm.org_access_level',
      'm.is_invite',
      'm.created_at',
      'm.updated_at',
      'u.first_name',
      'u.last_name',
      'u.user_level',
    ])
    .where('m.organization_id', '=', orgId)
    .orderBy('m.created_at')
    .orderBy('m.id')
    .limit(MEMBER_LIMIT)
    .execute();
}

export async function insertOrganization(db: Db, org: OrganizationsTable): Promise<void> {
  await db.insertInto('organizations').values(org).execute();
}

export async function renameOrganization(db: Db, id: string, name: string, now: string): Promise<void> {
  await db.updateTable('organizations').set({ name, updated_at: now }).where('id', '=', id).execute();
}

export async function deleteOrganization(db: Db, id: string): Promise<void> {
  await db.deleteFrom('organizations').where('id', '=', id).execute();
}

export async function insertMember(db: Db, m: Insertable<OrganizationMembersTable>): Promise<void> {
  await db
    .insertInto('organization_members')
    .values({ ...m, updated_at: m.updated_at ?? m.created_at })
    .execute();
}

export async function updateMember(
  db: Db,
  id: string,
  set: Partial<Insertable<OrganizationMembersTable>>,
): Promise<void> {
  await db
    .updateTable('organization_members')
    .set({ updated_at: nowIso(), ...set })
    .where('id', '=', id)
    .execute();
}

export async function deleteMember(db: Db, id: string): Promise<void> {
  await db.deleteFrom('organization_members').where('id', '=', id).execute();
}

/** Turns pending invites for an e-mail into memberships of the new account; returns their org ids. */
export async function claimInvites(db: Db, userId: string, email: string): Promise<string[]> {
  const rows = await db
    .updateTable('organization_members')
    .set({ user_id: userId, is_invite: 0, updated_at: nowIso() })
    .where('email', '=', email)
    .where('is_invite', '=', 1)
    .returning('organization_id')
    .execute();
  return rows.map((r) => r.organization_id);
}

/** Keeps membership e-mails in step with an account's e-mail change. */
export async function setMemberEmail(db: Db, userId: string, email: string): Promise<void> {
  await db
    .updateTable('organization_members')
    .set({ email, updated_at: nowIso() })
    .where('user_id', '=', userId)
    .execute();
}
