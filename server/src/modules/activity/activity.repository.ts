import type { Db } from '../../db/index.ts';
import type { ActivityTable } from '../../db/types.ts';

/** An entry as stored, with `seq` (the page cursor) and whether an undo of it exists. */
export type ActivityRow = Omit<ActivityTable, 'seq'> & {
  seq: number;
  undone_by: string | null;
  actor_first_name: string | null;
  actor_last_name: string | null;
  actor_email: string | null;
};

export interface ActivityQuery {
  /** Only this actor's entries (null: everyone's, the platform admin's view). */
  actor: string | null;
  entityType?: string;
  action?: string;
  /** Only the AI's and runs' entries, or only people's (web app and API clients). */
  source?: 'ai' | 'people';
  since?: string;
  until?: string;
  /** Entries older than this seq. */
  before?: number;
  limit: number;
}

function selectEntries(db: Db, q: Omit<ActivityQuery, 'limit'>) {
  let query = db
    .selectFrom('activity as a')
    // The undo of an entry, if any (undo_of is unique: at most one row joins).
    .leftJoin('activity as u', 'u.undo_of', 'a.id')
    // The actor's name while the account exists; the id stays in the entry after it is gone.
    .leftJoin('users as usr', 'usr.id', 'a.actor_user_id')
    .select([
      'a.seq',
      'a.id',
      'a.ts',
      'a.actor_user_id',
      'a.via',
      'a.action',
      'a.entity_type',
      'a.entity_id',
      'a.summary',
      'a.before',
      'a.after',
      'a.undoable',
      'a.undo_of',
      'u.id as undone_by',
      'usr.first_name as actor_first_name',
      'usr.last_name as actor_last_name',
      'usr.email as actor_email',
    ]);
  if (q.actor !== null) query = query.where('a.actor_user_id', '=', q.actor);
  if (q.entityType) query = query.where('a.entity_type', '=', q.entityType);
  if (q.action) query = query.where('a.action', '=', q.action);
  if (q.source === 'ai')
    query = query.where((w) => w.or([w('a.via', '=', 'ai'), w('a.via', 'like', 'run:%')]));
  if (q.source === 'people') query = query.where('a.via', 'in', ['ui', 'api']);
  if (q.since) query = query.where('a.ts', '>=', q.since);
  if (q.until) query = query.where('a.ts', '<', q.until);
  if (q.before !== undefined) query = query.where('a.seq', '<', q.before);
  return query.orderBy('a.seq', 'desc');
}

/** The query of one page (the plan test reads it). */
export const listEntriesQuery = (db: Db, q: ActivityQuery) => selectEntries(db, q).limit(q.limit);

/** One page, newest first: `limit` rows (the caller asks for one more to know if a next page exists). */
export async function listEntries(db: Db, q: ActivityQuery): Promise<ActivityRow[]> {
  const rows = await listEntriesQuery(db, q).execute();
  return rows.map((r) => ({ ...r, seq: Number(r.seq), undoable: Number(r.undoable) }));
}

export async function findEntry(db: Db, id: string): Promise<ActivityRow | undefined> {
  const row = await selectEntries(db, { actor: null }).where('a.id', '=', id).executeTakeFirst();
  return row ? { ...row, seq: Number(row.seq), undoable: Number(row.undoable) } : undefined;
}

/**
 * Whether an undo of the entry exists, read inside the undo's transaction after locking the entry's
 * row on PostgreSQL (a row lock fires no UPDATE trigger), so two undos of one entry run one after the
 * other and the second sees the first. SQLite runs one write transaction at a time already.
 */
export async function undoneInTransaction(db: Db, id: string, postgres: boolean): Promise<boolean> {
  let lock = db.selectFrom('activity').select('id').where('id', '=', id);
  if (postgres) lock = lock.forUpdate();
  await lock.execute();
  const undo = await db.selectFrom('activity').select('id').where('undo_of', '=', id).executeTakeFirst();
  return undo !== undefined;
}
