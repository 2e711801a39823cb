import type { Db } from '../../db/index.ts';
import { preparedQuery } from '../../db/prepared-query.ts';
import { containsPattern, lowerLike } from '../../db/search.ts';
import type { JournalsTable } from '../../db/types.ts';
import { visibleNotes } from './journals.policy.ts';

export interface JournalListOptions {
  search?: string;
  from?: string;
  to?: string;
  sort: 'newest' | 'oldest';
  skip: number;
  limit: number;
}

/**
 * The values of a list query (see {@link preparedQuery}): its SQL depends only on which filters are
 * present and on the direction.
 */
interface JournalPageParams {
  [key: string]: unknown;
  userId: string;
  from: string | null;
  to: string | null;
  /** The LIKE pattern of `search` (null: no search). */
  pattern: string | null;
  oldestFirst: boolean;
  skip: number;
  limit: number;
}

function pageParams(userId: string, opts: JournalListOptions): JournalPageParams {
  return {
    userId,
    from: opts.from || null,
    to: opts.to || null,
    pattern: containsPattern(opts.search),
    oldestFirst: opts.sort === 'oldest',
    skip: opts.skip,
    limit: opts.limit,
  };
}

/** The owner's entries, served by journals_user_date_idx (user_id, entry_date, created_at). */
function journalPage(db: Db, p: JournalPageParams) {
  let q = db
    .selectFrom('journals')
    .selectAll()
    .where(visibleNotes({ id: p.userId }));
  if (p.from) q = q.where('entry_date', '>=', p.from);
  if (p.to) q = q.where('entry_date', '<=', p.to);
  if (p.pattern) q = q.where(lowerLike('content', p.pattern));
  const dir = p.oldestFirst ? 'asc' : 'desc';
  return q
    .orderBy('entry_date', dir)
    .orderBy('created_at', dir)
    .orderBy('id', dir)
    .offset(p.skip)
    .limit(p.limit);
}

/** The list query as built for these options (the query-plan test reads it). */
export const listJournalsQuery = (db: Db, userId: string, opts: JournalListOptions) =>
  journalPage(db, pageParams(userId, opts));

const preparedJournalPage = preparedQuery(journalPage, { offThread: true });

/** A page of the owner's entries (GET /api/journals/: prepared). */
export function listJournals(db: Db, userId: string, opts: JournalListOptions) {
  return preparedJournalPage(db, pageParams(userId, opts));
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

/** The owner's latest notes (id, content, date), newest first: journals_user_date_idx. */
export function latestNotes(db: Db, userId: string, limit: number) {
  return db
    .selectFrom('journals')
    .select(['id', 'content', 'entry_date'])
    .where(visibleNotes({ id: userId }))
    .orderBy('entry_date', 'desc')
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/** Of these notes, the ids of those the viewer may see (journals.policy: their own). */
export async function visibleNoteIds(
  db: Db,
  viewer: { id: string },
  ids: readonly string[],
): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('journals')
    .select('journals.id')
    .where('journals.id', 'in', [...ids])
    .where(visibleNotes(viewer))
    .execute();
  return rows.map((r) => r.id);
}
