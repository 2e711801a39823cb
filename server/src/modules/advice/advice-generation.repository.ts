import type { Db } from '../../db/index.ts';
import type { AdviceGenerationsTable } from '../../db/types.ts';

export async function insertGeneration(db: Db, row: AdviceGenerationsTable): Promise<void> {
  await db.insertInto('advice_generations').values(row).execute();
}

export function findGeneration(db: Db, id: string) {
  return db.selectFrom('advice_generations').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Ends a running generation; a generation that already ended stays as it is. */
export async function finishGeneration(
  db: Db,
  id: string,
  set: Pick<AdviceGenerationsTable, 'status' | 'advice_id' | 'error' | 'finished_at'>,
): Promise<void> {
  await db
    .updateTable('advice_generations')
    .set(set)
    .where('id', '=', id)
    .where('status', '=', 'running')
    .execute();
}
