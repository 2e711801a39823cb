import type { Db } from '../../db/index.ts';
import type { OidcLoginsTable } from '../../db/types.ts';

export async function insertOidcLogin(db: Db, row: OidcLoginsTable): Promise<void> {
  await db.insertInto('oidc_logins').values(row).execute();
}

/** Takes a started sign-in by its state: single use, so a replayed callback finds nothing. */
export async function takeOidcLogin(db: Db, state: string, notBefore: string) {
  const row = await db
    .selectFrom('oidc_logins')
    .selectAll()
    .where('state', '=', state)
    .where('exchange_hash', 'is', null)
    .executeTakeFirst();
  if (!row) return null;
  const gone = await db
    .deleteFrom('oidc_logins')
    .where('state', '=', state)
    .where('exchange_hash', 'is', null)
    .executeTakeFirst();
  if (Number(gone.numDeletedRows) === 0 || row.created_at < notBefore) return null;
  return row;
}

export async function insertExchange(db: Db, row: OidcLoginsTable): Promise<void> {
  await db.insertInto('oidc_logins').values(row).execute();
}

/** Takes the one-time code's sign-in: the user it signs in, once. */
export async function takeExchange(db: Db, hash: string, notBefore: string): Promise<string | null> {
  const row = await db
    .selectFrom('oidc_logins')
    .select(['state', 'user_id', 'created_at'])
    .where('exchange_hash', '=', hash)
    .where('link_subject', 'is', null)
    .executeTakeFirst();
  if (!row) return null;
  const gone = await db.deleteFrom('oidc_logins').where('state', '=', row.state).executeTakeFirst();
  if (Number(gone.numDeletedRows) === 0 || row.created_at < notBefore) return null;
  return row.user_id;
}

export async function purgeOidcLogins(db: Db, before: string): Promise<void> {
  await db.deleteFrom('oidc_logins').where('created_at', '<', before).execute();
}

export function findIdentity(db: Db, issuer: string, subject: string) {
  return db
    .selectFrom('user_identities')
    .select('user_id')
    .where('issuer', '=', issuer)
    .where('subject', '=', subject)
    .executeTakeFirst();
}

export async function insertIdentity(
  db: Db,
  row: { id: string; user_id: string; issuer: string; subject: string; created_at: string },
): Promise<void> {
  await db
    .insertInto('user_identities')
    .values(row)
    .onConflict((oc) => oc.columns(['issuer', 'subject']).doNothing())
    .execute();
}

/** A link waiting for the account's password, by the hash of its code (not taken: a typo may be retried). */
export function findPendingLink(db: Db, hash: string, notBefore: string) {
  return db
    .selectFrom('oidc_logins')
    .select(['state', 'user_id', 'link_issuer', 'link_subject'])
    .where('exchange_hash', '=', hash)
    .where('link_subject', 'is not', null)
    .where('created_at', '>=', notBefore)
    .executeTakeFirst();
}

/** Takes the pending link once its password was right: false when another request took it first. */
export async function takePendingLink(db: Db, state: string): Promise<boolean> {
  const gone = await db.deleteFrom('oidc_logins').where('state', '=', state).executeTakeFirst();
  return Number(gone.numDeletedRows) > 0;
}
