import { type Db, nowIso } from '../../db/index.ts';
import type { ApiKeysTable } from '../../db/types.ts';

export type ApiKeyRow = ApiKeysTable;

export async function insertApiKey(db: Db, row: ApiKeyRow): Promise<void> {
  await db.insertInto('api_keys').values(row).execute();
}

export function listUserApiKeys(db: Db, userId: string): Promise<ApiKeyRow[]> {
  return db
    .selectFrom('api_keys')
    .selectAll()
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

export async function countLiveUserApiKeys(db: Db, userId: string): Promise<number> {
  const r = await db
    .selectFrom('api_keys')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(r?.n ?? 0);
}

/** Revokes a live key of this user; false when there is none (unknown, someone else's, already revoked). */
export async function revokeApiKey(db: Db, userId: string, id: string, at: string): Promise<boolean> {
  const r = await db
    .updateTable('api_keys')
    .set({ revoked_at: at })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** The key named by its public prefix, with its owner: the lookup of every keyed request (unique index). */
export function findApiKeyWithUser(db: Db, prefix: string) {
  return db
    .selectFrom('api_keys')
    .innerJoin('users', 'users.id', 'api_keys.user_id')
    .select([
      'api_keys.id as key_id',
      'api_keys.secret_hash',
      'api_keys.scopes',
      'api_keys.expires_at',
      'api_keys.revoked_at',
      'api_keys.last_used_at',
      'users.id',
      'users.email',
      'users.first_name',
      'users.last_name',
      'users.user_level',
      'users.organization_id',
    ])
    .where('api_keys.prefix', '=', prefix)
    .executeTakeFirst();
}

export async function touchApiKey(db: Db, id: string, at: string): Promise<void> {
  await db.updateTable('api_keys').set({ last_used_at: at }).where('id', '=', id).execute();
}

/**
 * Revokes every live key of the account (a password change, signing out everywhere, a first single
 * sign-on link): a key minted by whoever held the account before stops working. Returns how many.
 */
export async function revokeAllKeysOf(db: Db, userId: string, at = nowIso()): Promise<number> {
  const r = await db
    .updateTable('api_keys')
    .set({ revoked_at: at })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}
