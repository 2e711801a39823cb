import type { Insertable } from 'kysely';
import { type Db, nowIso } from '../../db/index.ts';
import { preparedQuery } from '../../db/prepared-query.ts';
import type { OrganizationMembersTable } from '../../db/types.ts';

/** The user's memberships (organization id → access level); invitations are not memberships. */
const memberships = preparedQuery((db, p: { userId: string }) =>
  db
    .selectFrom('organization_members')
    .select(['organization_id', 'org_access_level'])
    .where('user_id', '=', p.userId)
    .where('is_invite', '=', 0),
);

/** Organization id → org_access_level of the user's memberships (read on most requests: prepared). */
export async function membershipsOf(db: Db, userId: string): Promise<Map<string, string>> {
  const rows = await memberships(db, { userId });
  return new Map(rows.map((r) => [r.organization_id, r.org_access_level]));
}

/** The organization of the user's earliest membership (the first they joined or accepted), or undefined. */
export async function firstMembershipOf(db: Db, userId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('organization_members')
    .select('organization_id')
    .where('user_id', '=', userId)
    .where('is_invite', '=', 0)
    .orderBy('created_at')
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
  return row?.organization_id;
}

export function findMembership(db: Db, orgId: string, userId: string) {
  return db
    .selectFrom('organization_members')
    .selectAll()
    .where('organization_id', '=', orgId)
    .where('user_id', '=', userId)
    .where('is_invite', '=', 0)
    .executeTakeFirst();
}

/** The row for an e-mail in an organization: a membership or an invitation in any state. */
export function findMembershipByEmail(db: Db, orgId: string, email: string) {
  return db
    .selectFrom('organization_members')
    .selectAll()
    .where('organization_id', '=', orgId)
    .where('email', '=', email)
    .executeTakeFirst();
}

/** The invitation whose e-mailed secret has this hash. */
export function findInvitationBySecret(db: Db, secretHash: string) {
  return db
    .selectFrom('organization_members')
    .selectAll()
    .where('invite_secret_hash', '=', secretHash)
    .executeTakeFirst();
}

/** What an invitation bound to an account checks: its e-mail now and when it last changed. */
export function findInviteeEmailState(db: Db, userId: string) {
  return db
    .selectFrom('users')
    .select(['email', 'email_changed_at'])
    .where('id', '=', userId)
    .executeTakeFirst();
}

export function findMemberRow(db: Db, memberId: string) {
  return db.selectFrom('organization_members').selectAll().where('id', '=', memberId).executeTakeFirst();
}

/** A new row's version (`updated_at`, its ETag) starts at its creation time. */
export async function insertMember(db: Db, m: Insertable<OrganizationMembersTable>): Promise<void> {
  await db
    .insertInto('organization_members')
    .values({ ...m, updated_at: m.updated_at ?? m.created_at })
    .execute();
}

/** Every change moves the row's version, unless the caller gives the next one itself. */
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

/**
 * A pending invitation becomes the account's membership (its e-mail the account's own); false when it
 * was answered meanwhile. The e-mailed secret is spent with it.
 */
export async function acceptPendingInvitation(db: Db, id: string, userId: string, email: string) {
  const r = await db
    .updateTable('organization_members')
    .set({
      user_id: userId,
      email,
      is_invite: 0,
      invite_status: 'accepted',
      invite_secret_hash: null,
      updated_at: nowIso(),
    })
    .where('id', '=', id)
    .where('is_invite', '=', 1)
    .where('invite_status', '=', 'pending')
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

export async function deleteMember(db: Db, id: string): Promise<void> {
  await db.deleteFrom('organization_members').where('id', '=', id).execute();
}

/** Keeps membership e-mails in step with an account's e-mail change. */
export async function setMemberEmail(db: Db, userId: string, email: string): Promise<void> {
  await db
    .updateTable('organization_members')
    .set({ email, updated_at: nowIso() })
    .where('user_id', '=', userId)
    .execute();
}

const INVITATION_LIMIT = 100;

/**
 * Pending invitations sent to this account, with the organization's name and the inviter's name: bound
 * to it at creation, for the e-mail it still has and has not changed since.
 */
export function listPendingInvitations(db: Db, userId: string) {
  return db
    .selectFrom('organization_members as m')
    .innerJoin('users as me', 'me.id', 'm.invited_user_id')
    .innerJoin('organizations as o', 'o.id', 'm.organization_id')
    .leftJoin('users as inviter', 'inviter.id', 'm.invited_by')
    .select([
      'm.id',
      'm.organization_id',
      'o.name as organization_name',
      'm.org_access_level',
      'm.created_at',
      'm.updated_at',
      'inviter.first_name as inviter_first_name',
      'inviter.last_name as inviter_last_name',
      'inviter.email as inviter_email',
    ])
    .where('m.invited_user_id', '=', userId)
    .whereRef('m.email', '=', 'me.email')
    .where((eb) =>
      eb.or([eb('me.email_changed_at', 'is', null), eb('me.email_changed_at', '<=', eb.ref('m.created_at'))]),
    )
    .where('m.is_invite', '=', 1)
    .where('m.invite_status', '=', 'pending')
    .orderBy('m.created_at', 'desc')
    .orderBy('m.id')
    .limit(INVITATION_LIMIT)
    .execute();
}

export function findUserPrimaryOrganization(db: Db, userId: string) {
  return db.selectFrom('users').select('organization_id').where('id', '=', userId).executeTakeFirst();
}

export async function setUserPrimaryOrganization(
  db: Db,
  userId: string,
  orgId: string | null,
  now: string,
): Promise<void> {
  await db
    .updateTable('users')
    .set({ organization_id: orgId, updated_at: now })
    .where('id', '=', userId)
    .execute();
}

/** Marks an account as created through (managed by) an organization. */
export async function setManagedBy(db: Db, userId: string, orgId: string): Promise<void> {
  await db.updateTable('users').set({ managed_by_organization_id: orgId }).where('id', '=', userId).execute();
}
