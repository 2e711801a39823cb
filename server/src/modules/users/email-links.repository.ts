import type { Db } from '../../db/index.ts';
import type { EmailConfirmationsTable } from '../../db/types.ts';

/** A new link for the account replaces the earlier one of the same purpose (only the last works). */
export async function replaceEmailLink(db: Db, row: EmailConfirmationsTable): Promise<void> {
  await db
    .deleteFrom('email_confirmations')
    .where('user_id', '=', row.user_id)
    .where('purpose', '=', row.purpose)
    .execute();
  await db.insertInto('email_confirmations').values(row).execute();
}

/** Takes a link by its hash: single use, so a second click finds nothing. Expired links are not returned. */
export async function takeEmailLink(db: Db, tokenHash: string, now: string) {
  const row = await db
    .selectFrom('email_confirmations')
    .selectAll()
    .where('token_hash', '=', tokenHash)
    .executeTakeFirst();
  if (!row) return null;
  const gone = await db.deleteFrom('email_confirmations').where('id', '=', row.id).executeTakeFirst();
  if (Number(gone.numDeletedRows) === 0 || row.expires_at < now) return null;
  return row;
}

export async function deleteEmailLinks(db: Db, userId: string, purpose: 'verify' | 'change'): Promise<void> {
  await db
    .deleteFrom('email_confirmations')
    .where('user_id', '=', userId)
    .where('purpose', '=', purpose)
    .execute();
}

/** The pending (unexpired) new e-mail of each of these accounts. */
export function pendingEmailChanges(db: Db, userIds: readonly string[], now: string) {
  return db
    .selectFrom('email_confirmations')
    .select(['user_id', 'email'])
    .where('purpose', '=', 'change')
    .where('user_id', 'in', userIds.length ? [...userIds] : [''])
    .where('expires_at', '>', now)
    .execute();
}
