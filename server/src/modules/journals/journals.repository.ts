import type { Db } from '../../db/index.ts';
import { containsPattern, lowerLike } from '../../db/search.ts';
import type { JournalsTable } from '../../db/types.ts';

export interface JournalListOptions {
  search?: string;
  from?: string;
  to?: string;
  sort: 'newest' | 'oldest';
  skip: number;
  limit: number;
}

/** The owner's entries, served by journals_user_date_idx (user_id, entry_date, created_at). */
export function listJournalsQuery(db: Db, userId: string, opts: JournalListOptions) {
  let q = db.selectFrom('journals').selectAll().where('user_id', '=', userId);
  if (opts.from) q = q.where('entry_date', '>=', opts.from);
  if (opts.to) q = q.where('entry_date', '<=', opts.to);
  const pattern = containsPattern(opts.search);
  if (pattern) q = q.where(lowerLike('content', pattern));
  const dir = opts.sort === 'oldest' ? 'asc' : 'desc';
  return q
    .orderBy('entry_date', dir)
    .orderBy('created_at', dir)
    .orderBy('id', dir)
    .offset(opts.skip)
    .limit(opts.limit);
}

export function listJournals(db: Db, userId: string, opts: JournalListOptions) {
  return listJournalsQuery(db, userId, opts).execute();
}

export function findJournal(db: Db, id: string) {
  return db.selectFrom('journals').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function insertJournal(db: Db, row: JournalsTable): Promise<void> {
  await db.insertInto('journals').values(row).execute();
}

export async function updateJournal(db: Db, id: string, set: Partial<JournalsTable>): Promise<void> {
  await db.updateTable('journals').set(set).where('id', '=', id).execute();
}

export async function deleteJournal(db: Db, id: string): Promise<void> {
  await db.deleteFrom('journals').where('id', '=', id).execute();
}
