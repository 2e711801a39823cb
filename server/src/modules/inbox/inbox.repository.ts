import type { Db } from '../../db/index.ts';
import type { InboxItemsTable } from '../../db/types.ts';

/** The caller's pending count: one range of inbox_items_assignee_status_idx. */
export function countPendingQuery(db: Db, userId: string) {
  return db
    .selectFrom('inbox_items')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('assignee_user_id', '=', userId)
    .where('status', '=', 'pending');
}

export async function countPending(db: Db, userId: string): Promise<number> {
  const row = await countPendingQuery(db, userId).executeTakeFirst();
  return Number(row?.n ?? 0);
}

/**
 * One page of the caller's pending items with the total, read by ONE statement (`count(*) over ()`):
 * two statements on two pool connections could straddle an approval's commit, and a page would then
 * disagree with its own total. A page past the end has no row to carry the total: it is counted.
 */
export async function pendingPage(
  db: Db,
  userId: string,
  skip: number,
  limit: number,
): Promise<{ rows: InboxItemsTable[]; total: number }> {
  const found = await listPendingQuery(db, userId, skip, limit)
    .select((eb) => eb.fn.countAll<number>().over().as('page_total'))
    .execute();
  if (found.length === 0) return { rows: [], total: skip === 0 ? 0 : await countPending(db, userId) };
  const total = Number(found[0].page_total);
  return { rows: found.map(({ page_total: _, ...row }) => row as InboxItemsTable), total };
}

/** The caller's pending items, oldest first (the same index, in its order). */
export function listPendingQuery(db: Db, userId: string, skip: number, limit: number) {
  return db
    .selectFrom('inbox_items')
    .selectAll()
    .where('assignee_user_id', '=', userId)
    .where('status', '=', 'pending')
    .orderBy('created_at', 'asc')
    .orderBy('id', 'asc')
    .limit(limit)
    .offset(skip);
}

export function findItem(db: Db, id: string) {
  return db.selectFrom('inbox_items').selectAll().where('id', '=', id).executeTakeFirst();
}

export type OpenRow = Omit<InboxItemsTable, 'status' | 'resolved_at' | 'resolved_by' | 'reason'>;

/**
 * Opens the source's item: a pending one is refreshed in place (same id, age and assignee, which a
 * delegation may have changed); a settled one starts over as a new item (new id, age and assignee).
 */
export async function openItem(db: Db, row: OpenRow): Promise<InboxItemsTable> {
  const content = {
    source_type: row.source_type,
    source_url: row.source_url,
    title: row.title,
    summary: row.summary,
    details: row.details,
    organization_id: row.organization_id,
  };
  const refreshed = await db
    .updateTable('inbox_items')
    .set(content)
    .where('kind', '=', row.kind)
    .where('source_id', '=', row.source_id)
    .where('status', '=', 'pending')
    .returningAll()
    .executeTakeFirst();
  if (refreshed) return refreshed;
  const fresh = { ...row, status: 'pending', resolved_at: null, resolved_by: null, reason: null };
  return db
    .insertInto('inbox_items')
    .values(fresh)
    .onConflict((oc) =>
      oc.columns(['kind', 'source_id']).doUpdateSet({
        ...content,
        id: fresh.id,
        assignee_user_id: fresh.assignee_user_id,
        created_at: fresh.created_at,
        status: 'pending',
        resolved_at: null,
        resolved_by: null,
        reason: null,
      }),
    )
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Settles the source's pending item; returns it (undefined when there was none pending). */
export function resolveItem(
  db: Db,
  kind: string,
  sourceId: string,
  set: Pick<InboxItemsTable, 'status' | 'resolved_at' | 'resolved_by' | 'reason'>,
) {
  return db
    .updateTable('inbox_items')
    .set(set)
    .where('kind', '=', kind)
    .where('source_id', '=', sourceId)
    .where('status', '=', 'pending')
    .returningAll()
    .executeTakeFirst();
}

/** Who acted in the inbox (the source records the account it acted as). */
export async function stampResolution(
  db: Db,
  id: string,
  set: Pick<InboxItemsTable, 'resolved_by' | 'reason'>,
): Promise<void> {
  await db
    .updateTable('inbox_items')
    .set(set)
    .where('id', '=', id)
    .where('status', '!=', 'pending')
    .execute();
}

/** Moves a pending item from one person to another; false when it was no longer theirs or pending. */
export async function reassign(db: Db, id: string, from: string, to: string): Promise<boolean> {
  const res = await db
    .updateTable('inbox_items')
    .set({ assignee_user_id: to })
    .where('id', '=', id)
    .where('assignee_user_id', '=', from)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}
