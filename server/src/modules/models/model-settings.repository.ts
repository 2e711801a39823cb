import type { Db } from '../../db/index.ts';

/** The rows of Super Admin → Models, as key → stored value (keys already sealed by the service). */
export async function readSettings(db: Db): Promise<Map<string, string>> {
  const rows = await db.selectFrom('model_settings').select(['key', 'value']).execute();
  return new Map(rows.map((r) => [r.key, r.value]));
}

/** Stores a setting (null removes it). */
export async function putSetting(db: Db, key: string, value: string | null, now: string): Promise<void> {
  if (value === null) {
    await db.deleteFrom('model_settings').where('key', '=', key).execute();
    return;
  }
  await db
    .insertInto('model_settings')
    .values({ key, value, updated_at: now })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value, updated_at: now }))
    .execute();
}
