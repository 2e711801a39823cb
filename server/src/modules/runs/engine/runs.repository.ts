import type { ExpressionBuilder, Insertable, Selectable } from 'kysely';
import { type Db, withTx } from '../../../db/index.ts';
import type { Database, RunEventsTable, RunsTable } from '../../../db/types.ts';

export type RunRow = Selectable<RunsTable>;
export type RunEventRow = Selectable<RunEventsTable>;
export type RunKind = 'crew' | 'flow';

/** Statuses a worker may pick up (a crew run starts pending; running ones are resumed when their lease lapses). */
export const RUNNABLE_STATUSES = ['pending', 'started', 'running'] as const;

export async function insertRun(db: Db, row: Insertable<RunsTable>): Promise<void> {
  await db.insertInto('runs').values(row).execute();
}

export function findRun(db: Db, id: string): Promise<RunRow | undefined> {
  return db.selectFrom('runs').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Newest first; served by runs_user_idx or runs_conversation_idx. */
export function listRuns(
  db: Db,
  o: { userId: string; kind: RunKind; conversationId?: string; limit: number },
): Promise<RunRow[]> {
  let q = db.selectFrom('runs').selectAll().where('kind', '=', o.kind);
  q = o.conversationId
    ? q.where('conversation_id', '=', o.conversationId).where('user_id', '=', o.userId)
    : q.where('user_id', '=', o.userId);
  return q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(o.limit).execute();
}

/**
 * Claims the oldest runnable run whose lease is free or expired, for `ms`. One statement: the inner
 * select finds a candidate (on PostgreSQL locking it with SKIP LOCKED so concurrent workers take
 * different rows) and the outer update re-checks the lease, so two workers never hold the same run.
 */
export async function claimRun(
  db: Db,
  dialect: 'sqlite' | 'postgres',
  owner: string,
  now: Date,
  ms: number,
): Promise<RunRow | undefined> {
  const nowText = now.toISOString();
  const until = new Date(now.getTime() + ms).toISOString();
  const free = (eb: ExpressionBuilder<Database, 'runs'>) =>
    eb.and([
      eb('status', 'in', [...RUNNABLE_STATUSES]),
      eb.or([eb('lease_expires_at', 'is', null), eb('lease_expires_at', '<', nowText)]),
    ]);
  let candidate = db.selectFrom('runs').select('id').where(free).orderBy('created_at', 'asc').limit(1);
  if (dialect === 'postgres') candidate = candidate.forUpdate().skipLocked();
  return db
    .updateTable('runs')
    .set((eb) => ({
      lease_owner: owner,
      lease_expires_at: until,
      attempts: eb('attempts', '+', 1),
      updated_at: nowText,
    }))
    .where('id', '=', candidate)
    .where(free)
    .returningAll()
    .executeTakeFirst();
}

/** Extends the lease; false when the run is no longer ours (stopped, finished, or taken over). */
export async function renewLease(db: Db, id: string, owner: string, until: string): Promise<boolean> {
  const r = await db
    .updateTable('runs')
    .set({ lease_expires_at: until })
    .where('id', '=', id)
    .where('lease_owner', '=', owner)
    .where('finished_at', 'is', null)
    .where('status', 'in', [...RUNNABLE_STATUSES])
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** Gives the run back without finishing it (shutdown): another worker may take it at once. */
export async function releaseLease(db: Db, id: string, owner: string): Promise<void> {
  await db
    .updateTable('runs')
    .set({ lease_owner: null, lease_expires_at: null })
    .where('id', '=', id)
    .where('lease_owner', '=', owner)
    .execute();
}

/**
 * Updates the run only while `owner` holds it and it is still runnable (a stop in between wins), and
 * appends the events in the same transaction: a step's output and its event are one write.
 */
export async function commitStep(
  db: Db,
  id: string,
  owner: string,
  set: Partial<RunsTable>,
  events: NewEvent[],
): Promise<RunEventRow[] | null> {
  return withTx(db, async (trx) => {
    const r = await trx
      .updateTable('runs')
      .set(set)
      .where('id', '=', id)
      .where('lease_owner', '=', owner)
      .where('finished_at', 'is', null)
      .where('status', 'in', [...RUNNABLE_STATUSES])
      .executeTakeFirst();
    if (Number(r.numUpdatedRows) === 0) return null;
    return insertEvents(trx, id, events);
  });
}

export interface NewEvent {
  type: string;
  summary: string;
  details?: Record<string, unknown> | null;
}

export async function insertEvents(db: Db, runId: string, events: NewEvent[]): Promise<RunEventRow[]> {
  if (!events.length) return [];
  const ts = new Date().toISOString();
  return db
    .insertInto('run_events')
    .values(
      events.map((e) => ({
        run_id: runId,
        type: e.type,
        summary: e.summary.slice(0, 2_000),
        details: e.details ? JSON.stringify(e.details) : null,
        ts,
      })),
    )
    .returningAll()
    .execute();
}

/**
 * Changes the run when it is in one of `fromStatuses` and unfinished (no lease needed: continue and
 * stop come from requests) and appends the events; null when the run was not in such a state.
 */
export async function transition(
  db: Db,
  id: string,
  fromStatuses: readonly string[],
  set: Partial<RunsTable>,
  events: NewEvent[],
): Promise<RunEventRow[] | null> {
  return withTx(db, async (trx) => {
    const r = await trx
      .updateTable('runs')
      .set(set)
      .where('id', '=', id)
      .where('finished_at', 'is', null)
      .where('status', 'in', [...fromStatuses])
      .executeTakeFirst();
    if (Number(r.numUpdatedRows) === 0) return null;
    return insertEvents(trx, id, events);
  });
}

export function eventsAfter(db: Db, runId: string, after: number, limit: number): Promise<RunEventRow[]> {
  return db
    .selectFrom('run_events')
    .selectAll()
    .where('run_id', '=', runId)
    .where('seq', '>', after)
    .orderBy('seq', 'asc')
    .limit(limit)
    .execute();
}

/** A run as the brief names it. */
export interface BriefRunRow {
  id: string;
  kind: string;
  definition_name: string;
  status: string;
  human_prompt: string | null;
  inputs: string;
  result: string | null;
  finished_at: string | null;
  created_at: string;
  conversation_id: string | null;
  /** Why a failed run failed (null otherwise). */
  error: string | null;
}

const briefRunColumns = [
  'id',
  'kind',
  'definition_name',
  'status',
  'human_prompt',
  'inputs',
  'result',
  'finished_at',
  'created_at',
  'conversation_id',
  'error',
] as const;

/** Run names by id (the brief names the run an inbox item waits in; the item is the reader's). */
export async function runNames(db: Db, ids: readonly string[]): Promise<Map<string, string>> {
  if (!ids.length) return new Map();
  const rows = await db
    .selectFrom('runs')
    .select(['id', 'definition_name'])
    .where('id', 'in', [...ids])
    .execute();
  return new Map(rows.map((r) => [r.id, r.definition_name]));
}

/** The user's runs created before `until` that finished (completed) in [since, until). */
export function runsFinishedBetween(
  db: Db,
  o: { userId: string; since: string; until: string; limit: number },
): Promise<BriefRunRow[]> {
  return runsEndedBetween(db, { ...o, status: 'completed' });
}

/** The user's runs that ended failed in [since, until), with their reason (the brief names them). */
export function runsFailedBetween(
  db: Db,
  o: { userId: string; since: string; until: string; limit: number },
): Promise<BriefRunRow[]> {
  return runsEndedBetween(db, { ...o, status: 'failed' });
}

async function runsEndedBetween(
  db: Db,
  o: { userId: string; since: string; until: string; limit: number; status: 'completed' | 'failed' },
): Promise<BriefRunRow[]> {
  const kind = (k: RunKind) =>
    db
      .selectFrom('runs')
      .select([...briefRunColumns])
      .where('user_id', '=', o.userId)
      .where('kind', '=', k)
      .where('created_at', '<', o.until)
      .where('status', '=', o.status)
      .where('finished_at', '>=', o.since)
      .where('finished_at', '<', o.until)
      .orderBy('created_at', 'desc')
      .limit(o.limit)
      .execute();
  return (await Promise.all([kind('crew'), kind('flow')])).flat();
}
