import type { Db } from '../../db/index.ts';
import type { OutboundAllowlistTable } from '../../db/types.ts';

export type AllowlistRow = OutboundAllowlistTable;

/** Every entry, by destination then method (the list is small: at most OUTBOUND_ALLOWLIST_MAX). */
export function listEntries(db: Db): Promise<AllowlistRow[]> {
  return db
    .selectFrom('outbound_allowlist')
    .selectAll()
    .orderBy('destination')
    .orderBy('method')
    .limit(1_000)
    .execute();
}

/** Replaces the whole list in one transaction: a failed write leaves the old list. */
export async function replaceEntries(db: Db, rows: AllowlistRow[]): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('outbound_allowlist').execute();
    if (rows.length) await trx.insertInto('outbound_allowlist').values(rows).execute();
  });
}
