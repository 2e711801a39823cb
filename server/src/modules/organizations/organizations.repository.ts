import type { Db } from '../../db/index.ts';
import type { OrganizationsTable } from '../../db/types.ts';

// Organizations and their member lists; membership reads and writes are in memberships.repository.ts.

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
      .where((e) => e.or([e('m.invite_status', 'is', null), e('m.invite_status', '!=', 'declined')]))
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
          .where('mine.user_id', '=', uid)
          .where('mine.is_invite', '=', 0),
      ),
    );
  }
  return q.orderBy('organizations.name').orderBy('organizations.id').limit(opts.limit).execute();
}

const MEMBER_LIMIT = 500;

/**
 * Members and pending invitations (declined ones are gone from the list), with what the rights rules
 * need to know about each member's account. Invitations never join the account.
 */
export function listMembers(db: Db, orgId: string, only?: { memberId?: string; userId?: string }) {
  let q = db
    .selectFrom('organization_members as m')
    .leftJoin('users as u', (j) => j.onRef('u.id', '=', 'm.user_id').on('m.is_invite', '=', 0))
    .select((eb) => [
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
      'u.managed_by_organization_id',
      eb
        .exists(
          eb
            .selectFrom('organization_members as other')
            .select('other.id')
            .whereRef('other.user_id', '=', 'm.user_id')
            .where('other.organization_id', '!=', orgId)
            .where('other.is_invite', '=', 0),
        )
        .as('in_other_organization'),
    ])
    .where('m.organization_id', '=', orgId)
    .where((eb) => eb.or([eb('m.invite_status', 'is', null), eb('m.invite_status', '!=', 'declined')]));
  if (only?.memberId) q = q.where('m.id', '=', only.memberId);
  if (only?.userId) q = q.where('m.user_id', '=', only.userId);
  return q.orderBy('m.created_at').orderBy('m.id').limit(MEMBER_LIMIT).execute();
}

export type MemberRow = Awaited<ReturnType<typeof listMembers>>[number];

export async function insertOrganization(db: Db, org: OrganizationsTable): Promise<void> {
  await db.insertInto('organizations').values(org).execute();
}

export async function renameOrganization(db: Db, id: string, name: string, now: string): Promise<void> {
  await db.updateTable('organizations').set({ name, updated_at: now }).where('id', '=', id).execute();
}

export async function deleteOrganization(db: Db, id: string): Promise<void> {
  await db.deleteFrom('organizations').where('id', '=', id).execute();
}

/** Names of organizations (spend tables name them). */
export function namesByIds(db: Db, ids: readonly string[]) {
  return db
    .selectFrom('organizations')
    .select(['id', 'name'])
    .where('id', 'in', ids.length ? [...ids] : [''])
    .limit(Math.max(1, ids.length))
    .execute();
}
