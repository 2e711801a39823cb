import type { Db } from '../../db/index.ts';
import type { MemoriesTable } from '../../db/types.ts';

export type MemoryRow = MemoriesTable;

export function listMemories(db: Db, userId: string, skip: number, limit: number): Promise<MemoryRow[]> {
  return db
    .selectFrom('memories')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .offset(skip)
    .limit(limit)
    .execute();
}

export async function existingNormalized(
  db: Db,
  userId: string,
  keys: readonly string[],
): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const rows = await db
    .selectFrom('memories')
    .select('normalized')
    .where('user_id', '=', userId)
    .where('normalized', 'in', [...keys])
    .execute();
  return new Set(rows.map((r) => r.normalized));
}

export async function insertMemories(db: Db, rows: MemoryRow[]): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insertInto('memories')
    .values(rows)
    .onConflict((oc) => oc.columns(['user_id', 'normalized']).doNothing())
    .execute();
}

export async function deleteMemory(db: Db, userId: string, id: string): Promise<boolean> {
  const res = await db
    .deleteFrom('memories')
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}
