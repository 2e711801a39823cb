import { PostgresAdapter, sql } from 'kysely';
import type { Db } from '../../db/index.ts';
import { nowIso } from '../../db/index.ts';
import { preparedQuery } from '../../db/prepared-query.ts';

export async function insertSession(
  db: Db,
  s: { id: string; user_id: string; expires_at: string; user_agent: string | null },
): Promise<void> {
  await db
    .insertInto('sessions')
    .values({ ...s, created_at: nowIso(), revoked_at: null })
    .execute();
}

/**
 * The session with its user in one indexed lookup: the hot path of every authenticated request. It
 * also brings the user's memberships (`memberships`: `organization id=level` pairs, comma-separated;
 * invitations are not memberships), which nearly every request then needs (caller-memberships.ts).
 */
export async function findActiveSessionUser(db: Db, sessionId: string, userId: string) {
  return (await activeSessionUser(db, { sessionId, userId }))[0];
}

const activeSessionUser = preparedQuery((db, p: { sessionId: string; userId: string }) =>
  db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .select([
      'users.id',
      'users.email',
      'users.first_name',
      'users.last_name',
      'users.user_level',
      'users.organization_id',
      'sessions.expires_at',
      membershipList(db).as('memberships'),
    ])
    .where('sessions.id', '=', p.sessionId)
    .where('sessions.user_id', '=', p.userId)
    .where('sessions.revoked_at', 'is', null),
);

function membershipList(db: Db) {
  const pairs = sql`m.organization_id || '=' || m.org_access_level`;
  const agg =
    db.getExecutor().adapter instanceof PostgresAdapter
      ? sql`string_agg(${pairs}, ',')`
      : sql`group_concat(${pairs}, ',')`;
  return sql<
    string | null
  >`(select ${agg} from organization_members m where m.user_id = users.id and m.is_invite = 0)`;
}

export async function revokeSession(db: Db, sessionId: string): Promise<void> {
  await db.updateTable('sessions').set({ revoked_at: nowIso() }).where('id', '=', sessionId).execute();
}

/** Revokes every live session of a user, optionally keeping one (the caller's own). */
export async function revokeUserSessions(db: Db, userId: string, exceptSessionId?: string): Promise<void> {
  let q = db
    .updateTable('sessions')
    .set({ revoked_at: nowIso() })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null);
  if (exceptSessionId) q = q.where('id', '!=', exceptSessionId);
  await q.execute();
}

/** When a live session was opened (its sign-in), or null for an unknown or revoked one. */
export async function sessionSignedInAt(db: Db, sessionId: string): Promise<string | null> {
  const row = await db
    .selectFrom('sessions')
    .select('created_at')
    .where('id', '=', sessionId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return row?.created_at ?? null;
}
