import type { Db } from '../src/db/index.ts';

/** A record's stored list entry (tasks.list_json, contacts.list_json): its text, or null when forgotten. */
export async function storedEntry(db: Db, table: 'tasks' | 'contacts', id: string): Promise<string | null> {
  const row = await db.selectFrom(table).select('list_json').where('id', '=', id).executeTakeFirstOrThrow();
  return row.list_json ?? null;
}

/** Waits (up to 2 s) for the background renderer to store the entry again; returns it parsed. */
export async function renderedAgain(db: Db, table: 'tasks' | 'contacts', id: string) {
  for (let i = 0; i < 100; i++) {
    const json = await storedEntry(db, table, id);
    if (json !== null) return JSON.parse(json);
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`the list entry of ${table} ${id} was not rendered again`);
}
