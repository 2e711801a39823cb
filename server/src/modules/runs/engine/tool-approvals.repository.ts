import type { Insertable, Selectable } from 'kysely';
import { type Db, withTx } from '../../../db/index.ts';
import type { RunsTable, ToolApprovalsTable } from '../../../db/types.ts';
import { insertEvents, type NewEvent, type RunEventRow } from './runs.repository.ts';

export type ToolApprovalRow = Selectable<ToolApprovalsTable>;

const now = () => new Date().toISOString();

export function findApproval(db: Db, id: string): Promise<ToolApprovalRow | undefined> {
  return db.selectFrom('tool_approvals').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The decision stored for the n-th gated call of a step (served by tool_approvals_call_idx). */
export function findApprovalAt(
  db: Db,
  runId: string,
  position: number,
  callIndex: number,
): Promise<ToolApprovalRow | undefined> {
  return db
    .selectFrom('tool_approvals')
    .selectAll()
    .where('run_id', '=', runId)
    .where('position', '=', position)
    .where('call_index', '=', callIndex)
    .executeTakeFirst();
}

/** The recorded calls of one step, in call order (served by tool_approvals_call_idx). */
export function listStepApprovals(db: Db, runId: string, position: number): Promise<ToolApprovalRow[]> {
  return db
    .selectFrom('tool_approvals')
    .selectAll()
    .where('run_id', '=', runId)
    .where('position', '=', position)
    .orderBy('call_index', 'asc')
    .execute();
}

/** Oldest first; served by the unique index's run_id prefix. */
export function listApprovals(db: Db, runId: string): Promise<ToolApprovalRow[]> {
  return db
    .selectFrom('tool_approvals')
    .selectAll()
    .where('run_id', '=', runId)
    .orderBy('position', 'asc')
    .orderBy('call_index', 'asc')
    .execute();
}

/** True when the runner already let a call to this destination through in this run. */
export async function destinationApproved(db: Db, runId: string, destination: string): Promise<boolean> {
  const row = await db
    .selectFrom('tool_approvals')
    .select('id')
    .where('run_id', '=', runId)
    .where('destination', '=', destination)
    .where('status', 'in', ['approved', 'executing', 'done'])
    .executeTakeFirst();
  return !!row;
}

/**
 * Records a pending call once: a step resumed after a crash finds the row it wrote before (the
 * unique index on its place in the run decides between two writers), and gets that row back.
 */
export async function insertPendingApproval(
  db: Db,
  row: Insertable<ToolApprovalsTable>,
): Promise<ToolApprovalRow> {
  await db
    .insertInto('tool_approvals')
    .values(row)
    .onConflict((oc) => oc.columns(['run_id', 'position', 'call_index']).doNothing())
    .execute();
  const stored = await findApprovalAt(db, row.run_id, row.position, row.call_index);
  if (!stored) throw new Error('The pending approval could not be stored');
  return stored;
}

/** Moves an approved call to `executing`: true for exactly one caller, who then makes the call. */
export async function claimApproved(db: Db, id: string): Promise<boolean> {
  const r = await db
    .updateTable('tool_approvals')
    .set({ status: 'executing', updated_at: now() })
    .where('id', '=', id)
    .where('status', '=', 'approved')
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/**
 * An approved call found claimed but without a result when its step runs again: it may have gone out,
 * so it is never sent again on its own; it waits for the person's answer instead (issue 46 row 8).
 */
export async function markInterrupted(db: Db, id: string): Promise<void> {
  await db
    .updateTable('tool_approvals')
    .set({ status: 'interrupted', updated_at: now() })
    .where('id', '=', id)
    .where('status', '=', 'executing')
    .execute();
}

/** A stopped run's interrupted calls end `stopped` (their outcome stays unknown); their ids. */
export async function stopInterrupted(db: Db, runId: string): Promise<string[]> {
  const rows = await db
    .updateTable('tool_approvals')
    .set({ status: 'stopped', updated_at: now() })
    .where('run_id', '=', runId)
    .where('status', '=', 'interrupted')
    .returning('id')
    .execute();
  return rows.map((r) => r.id);
}

export async function storeResult(db: Db, id: string, result: unknown): Promise<void> {
  await db
    .updateTable('tool_approvals')
    .set({ status: 'done', result: JSON.stringify(result), updated_at: now() })
    .where('id', '=', id)
    .where('status', '=', 'executing')
    .execute();
}

export type DecideOutcome = 'decided' | 'already_decided' | 'run_not_waiting';

/**
 * The person's decision and the run's move back to `running` (or its end), in one transaction: the
 * approval changes only while in `fromStatus` (pending, or interrupted for an answer; a second
 * decision gets nothing) and the run only while it waits in one of `waitingStatuses`; if either fails
 * nothing is written.
 */
export async function decideApproval(
  db: Db,
  o: {
    id: string;
    fromStatus?: 'pending' | 'interrupted';
    runId: string;
    waitingStatuses: readonly string[];
    set: Partial<ToolApprovalsTable>;
    runSet: Partial<RunsTable>;
    events: NewEvent[];
  },
): Promise<{ outcome: DecideOutcome; rows: RunEventRow[] }> {
  class Rollback extends Error {
    constructor(readonly outcome: DecideOutcome) {
      super(outcome);
    }
  }
  try {
    const rows = await withTx(db, async (trx) => {
      const a = await trx
        .updateTable('tool_approvals')
        .set({ ...o.set, updated_at: now() })
        .where('id', '=', o.id)
        .where('status', '=', o.fromStatus ?? 'pending')
        .executeTakeFirst();
      if (Number(a.numUpdatedRows) === 0) throw new Rollback('already_decided');
      const r = await trx
        .updateTable('runs')
        .set({ ...o.runSet, updated_at: now() })
        .where('id', '=', o.runId)
        .where('finished_at', 'is', null)
        .where('status', 'in', [...o.waitingStatuses])
        .executeTakeFirst();
      if (Number(r.numUpdatedRows) === 0) throw new Rollback('run_not_waiting');
      return insertEvents(trx, o.runId, o.events);
    });
    return { outcome: 'decided', rows };
  } catch (err) {
    if (err instanceof Rollback) return { outcome: err.outcome, rows: [] };
    throw err;
  }
}

/** A call waits for the person: to be decided, or (interrupted) to be told what became of it. */
export function hasPendingApproval(db: Db, runId: string): Promise<boolean> {
  return db
    .selectFrom('tool_approvals')
    .select('id')
    .where('run_id', '=', runId)
    .where('status', 'in', ['pending', 'interrupted'])
    .executeTakeFirst()
    .then((r) => !!r);
}

export function pendingApprovalIds(db: Db, runId: string): Promise<string[]> {
  return db
    .selectFrom('tool_approvals')
    .select('id')
    .where('run_id', '=', runId)
    .where('status', '=', 'pending')
    .execute()
    .then((rows) => rows.map((r) => r.id));
}
