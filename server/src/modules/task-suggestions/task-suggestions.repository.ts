import type { Db } from '../../db/index.ts';
import type { TaskSuggestionsTable } from '../../db/types.ts';

/** The user's pending suggestions, newest first (task_suggestions_user_status_idx). */
export function listPendingQuery(db: Db, userId: string, limit: number) {
  return db
    .selectFrom('task_suggestions')
    .selectAll()
    .where('user_id', '=', userId)
    .where('status', '=', 'pending')
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit);
}

export function listPending(db: Db, userId: string, limit: number) {
  return listPendingQuery(db, userId, limit).execute();
}

export function findSuggestion(db: Db, id: string) {
  return db.selectFrom('task_suggestions').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * The user's earlier suggestions (any status) with one of these source or title keys: the ones a new
 * generate must not repeat. Served by the unique (user_id, source_key) and (user_id, title_key) indexes.
 */
export async function existingKeys(
  db: Db,
  userId: string,
  sourceKeys: readonly string[],
  titleKeys: readonly string[],
): Promise<{ sources: Set<string>; titles: Set<string> }> {
  const out = { sources: new Set<string>(), titles: new Set<string>() };
  const [bySource, byTitle] = await Promise.all([
    sourceKeys.length
      ? db
          .selectFrom('task_suggestions')
          .select(['source_key', 'title_key'])
          .where('user_id', '=', userId)
          .where('source_key', 'in', [...sourceKeys])
          .limit(sourceKeys.length)
          .execute()
      : [],
    titleKeys.length
      ? db
          .selectFrom('task_suggestions')
          .select(['source_key', 'title_key'])
          .where('user_id', '=', userId)
          .where('title_key', 'in', [...titleKeys])
          .limit(titleKeys.length)
          .execute()
      : [],
  ]);
  for (const r of [...bySource, ...byTitle]) {
    if (r.source_key) out.sources.add(r.source_key);
    out.titles.add(r.title_key);
  }
  return out;
}

/** Inserts the suggestions whose keys are still free; returns the ids that were inserted. */
export async function insertSuggestions(db: Db, rows: TaskSuggestionsTable[]): Promise<string[]> {
  const inserted: string[] = [];
  for (const row of rows) {
    const res = await db
      .insertInto('task_suggestions')
      .values(row)
      .onConflict((oc) => oc.doNothing())
      .executeTakeFirst();
    if (Number(res.numInsertedOrUpdatedRows ?? 0) > 0) inserted.push(row.id);
  }
  return inserted;
}

/** Changes a pending suggestion; false when it was no longer pending (someone else handled it). */
export async function settleSuggestion(
  db: Db,
  id: string,
  set: Partial<TaskSuggestionsTable>,
): Promise<boolean> {
  const res = await db
    .updateTable('task_suggestions')
    .set(set)
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}
