import { sql } from 'kysely';
import type { Db } from '../../db/index.ts';
import { preparedQuery } from '../../db/prepared-query.ts';
import type { ProfilesTable, UsersTable } from '../../db/types.ts';

/** The columns of a user with their profile and primary organization name: what the presenter needs. */
function selectUsers(db: Db) {
  return db
    .selectFrom('users')
    .innerJoin('profiles', 'profiles.user_id', 'users.id')
    .leftJoin('organizations', 'organizations.id', 'users.organization_id')
    .select([
      'users.id',
      'users.email',
      'users.first_name',
      'users.last_name',
      'users.user_level',
      'users.organization_id',
      'users.role',
      'users.created_at',
      'users.updated_at',
      'users.brief_schedule',
      'users.email_verified_at',
      'organizations.name as organization_name',
      'profiles.name as profile_name',
      'profiles.role as profile_role',
      'profiles.objectives',
      'profiles.behavior_notes',
      'profiles.knowledge_summary',
      'profiles.custom_prompts',
      'profiles.created_at as profile_created_at',
      'profiles.updated_at as profile_updated_at',
    ]);
}

const userById = preparedQuery((db, p: { id: string }) => selectUsers(db).where('users.id', '=', p.id));

export type UserRow = NonNullable<Awaited<ReturnType<typeof findUserById>>>;

/** One user with profile and organization name (GET /api/users/me on every page load: prepared). */
export async function findUserById(db: Db, id: string) {
  return (await userById(db, { id }))[0];
}

export function findCredentialsByEmail(db: Db, email: string) {
  return db
    .selectFrom('users')
    .select(['id', 'email', 'password_hash', 'user_level', 'email_verified_at', 'password_sign_in_at'])
    .where('email', '=', email.toLowerCase())
    .executeTakeFirst();
}

/** A sign-in with the password (single sign-on auto-links only to an account whose password was used since verification). */
export async function markPasswordSignIn(db: Db, id: string, at: string): Promise<void> {
  await db.updateTable('users').set({ password_sign_in_at: at }).where('id', '=', id).execute();
}

export function findEmailState(db: Db, id: string) {
  return db
    .selectFrom('users')
    .select(['email', 'email_verified_at', 'email_changed_at', 'password_sign_in_at', 'user_level'])
    .where('id', '=', id)
    .executeTakeFirst();
}

export function findPasswordHash(db: Db, id: string) {
  return db.selectFrom('users').select('password_hash').where('id', '=', id).executeTakeFirst();
}

export async function emailTaken(db: Db, email: string, exceptId?: string): Promise<boolean> {
  let q = db.selectFrom('users').select('id').where('email', '=', email.toLowerCase());
  if (exceptId) q = q.where('id', '!=', exceptId);
  return (await q.executeTakeFirst()) !== undefined;
}

export async function countUsers(db: Db): Promise<number> {
  const r = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** Newest first; search matches name, e-mail or organization name, case-insensitively. */
export function listUsers(db: Db, opts: { search?: string; skip: number; limit: number }) {
  let q = selectUsers(db);
  const s = opts.search?.trim().toLowerCase();
  if (s) {
    const like = `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    q = q.where((eb) =>
      eb.or([
        eb(sql`lower(users.email)`, 'like', sql`${like} escape '\\'`),
        eb(
          sql`lower(coalesce(users.first_name, '') || ' ' || coalesce(users.last_name, ''))`,
          'like',
          sql`${like} escape '\\'`,
        ),
        eb(sql`lower(coalesce(organizations.name, ''))`, 'like', sql`${like} escape '\\'`),
      ]),
    );
  }
  return q
    .orderBy('users.created_at', 'desc')
    .orderBy('users.id')
    .offset(opts.skip)
    .limit(opts.limit)
    .execute();
}

export async function insertUser(db: Db, user: UsersTable, profile: ProfilesTable): Promise<void> {
  await db.insertInto('users').values(user).execute();
  await db.insertInto('profiles').values(profile).execute();
}

export async function updateUserColumns(db: Db, id: string, set: Partial<UsersTable>): Promise<void> {
  if (Object.keys(set).length === 0) return;
  await db.updateTable('users').set(set).where('id', '=', id).execute();
}

export async function updateProfileColumns(
  db: Db,
  userId: string,
  set: Partial<ProfilesTable>,
): Promise<void> {
  if (Object.keys(set).length === 0) return;
  await db.updateTable('profiles').set(set).where('user_id', '=', userId).execute();
}

export async function deleteUser(db: Db, id: string): Promise<void> {
  await db.deleteFrom('users').where('id', '=', id).execute();
}

/** Users whose brief schedule is on, by id after `afterId` (users_brief_schedule_idx): the scheduler's page. */
export function scheduledBriefUsers(db: Db, afterId: string, limit: number) {
  return db
    .selectFrom('users')
    .select(['id', 'organization_id', 'brief_schedule'])
    .where('brief_schedule_on', '=', 1)
    .where('id', '>', afterId)
    .where('user_level', '!=', 'waitlisted')
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** Display names of accounts (spend tables name people), at most `ids.length` rows. */
export function namesByIds(db: Db, ids: readonly string[]) {
  return db
    .selectFrom('users')
    .select(['id', 'email', 'first_name', 'last_name', 'run_confirm_usd'])
    .where('id', 'in', ids.length ? [...ids] : [''])
    .limit(Math.max(1, ids.length))
    .execute();
}
