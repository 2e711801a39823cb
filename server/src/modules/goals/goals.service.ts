import { randomUUID } from 'node:crypto';
import {
  COMPLETED_GOAL_STATUSES,
  GOAL_START_AFTER_DUE,
  citationUrl,
  MAX_KPIS_PER_GOAL,
  type TGoal,
  type TRecordCitation,
  type ZCreateGoalRequest,
  type ZGoalListQuery,
  type ZKpiInput,
  type ZUpdateGoalRequest,
} from '@cc/contract';
import type { z } from 'zod';
import { type Db, nowIso, withTx } from '../../db/index.ts';
import type { GoalKpisTable } from '../../db/types.ts';
import { assertMemberOf } from '../../platform/access.ts';
import type { AuthUser } from '../../platform/auth/authenticate.ts';
import type { AppContext } from '../../platform/context.ts';
import { AppError, forbidden } from '../../platform/errors.ts';
import { loadViewer, loadWithRights, type Viewer, type ViewerScope } from '../../platform/viewer.ts';
import { goalRights, goalVisibilityBranches } from './goals.policy.ts';
import { historyOf } from './goals.history.ts';
import { listGoalPage, renderListEntries } from './goals.list-entry.ts';
import { type GoalFields, presentGoal, presentGoalFields, startDateOf } from './goals.presenter.ts';
import { ANY_VERSION, nextVersion, type Precondition } from '../../platform/concurrency.ts';
import * as repo from './goals.repository.ts';
import * as checkinRepo from './kpi-checkins.repository.ts';

export { todayUtc } from './goals.history.ts';

/**
 * The start date to store: the one sent, which must not be after the due date (the straight line of
 * expected progress runs forward); else `fallback` (the creation day, or the stored start), moved back
 * to the due date when that is earlier (a goal entered after its due date starts and ends that day).
 */
function startDateFor(sent: string | undefined, fallback: string, dueDate: string): string {
  // The same shape as a schema's 422, so the dialog shows it beside the field.
  if (sent !== undefined && sent > dueDate)
    throw new AppError(422, [
      { loc: ['body', 'start_date'], msg: GOAL_START_AFTER_DUE, type: 'value_error' },
    ]);
  const start = sent ?? fallback;
  return start > dueDate ? dueDate : start;
}

/**
 * Every change of a KPI's current value is a check-in (issue 20 §1): a new KPI, or one whose value the
 * goal dialog changed, is recorded today by the caller (replacing today's check-in, if any).
 */
async function recordValueChanges(
  trx: Db,
  userId: string,
  before: readonly GoalKpisTable[],
  after: readonly GoalKpisTable[],
): Promise<void> {
  const old = new Map(before.map((k) => [k.id, Number(k.current_value)]));
  const now = nowIso();
  for (const k of after) {
    if (old.get(k.id) === Number(k.current_value)) continue;
    await checkinRepo.upsertCheckin(trx, {
      id: randomUUID(),
      kpi_id: k.id,
      value: k.current_value,
      date: now.slice(0, 10),
      note: null,
      user_id: userId,
      created_at: now,
    });
  }
}

/**
 * Whether the viewer may see the goal `goalId` (a task may link only to such a goal); a goal that does
 * not exist is simply not visible.
 */
export async function isGoalVisible(ctx: AppContext, viewer: Viewer, goalId: string): Promise<boolean> {
  const goal = await repo.findGoal(ctx.db, goalId);
  return Boolean(goal && goalRights(goal, viewer).visible);
}

/** The goal and the caller's rights; 404 when the caller may not see it (the check-in routes use it too). */
export async function loadGoal(ctx: AppContext, caller: AuthUser, id: string) {
  return load(ctx, caller, id);
}

async function load(ctx: AppContext, caller: AuthUser, id: string) {
  const { row, viewer, rights } = await loadWithRights(ctx, caller, {
    find: () => repo.findGoal(ctx.db, id),
    rights: (goal, _none, v) => goalRights(goal, v),
    missing: 'Goal not found',
  });
  return { row, levels: viewer.levels, ...rights };
}

async function present(ctx: AppContext, caller: AuthUser, id: string): Promise<TGoal> {
  const { row, canEdit } = await load(ctx, caller, id);
  const kpis = await repo.listKpis(ctx.db, [id], MAX_KPIS_PER_GOAL);
  return presentGoal(row, kpis, { canEdit }, await historyOf(ctx.db, kpis));
}

/** KPI rows in the given order; a KPI keeps its id only when it already belongs to this goal. */
function kpiRows(goalId: string, kpis: z.output<typeof ZKpiInput>[], keepIds: Set<string>): GoalKpisTable[] {
  const used = new Set<string>();
  return kpis.map((k, position) => {
    const id = k.id && keepIds.has(k.id) && !used.has(k.id) ? k.id : randomUUID();
    used.add(id);
    return {
      id,
      goal_id: goalId,
      position,
      name: k.name,
      current_value: k.current_value,
      target_value: k.target_value,
      unit: k.unit ?? null,
      direction: k.direction,
    };
  });
}

export async function listGoals(
  ctx: AppContext,
  caller: AuthUser,
  q: z.output<typeof ZGoalListQuery>,
): Promise<TGoal[]> {
  return JSON.parse(await listGoalsText(ctx, caller, q));
}

/** A page of goals as JSON text, from their stored list entries (goals.list-entry.ts). */
export async function listGoalsText(
  ctx: AppContext,
  caller: AuthUser,
  q: z.output<typeof ZGoalListQuery>,
): Promise<string> {
  const viewer = await loadViewer(ctx, caller);
  assertMemberOf(viewer.levels, q.organization_id);
  return listGoalPage(ctx, viewer, {
    userId: viewer.id,
    orgIds: viewer.orgIds,
    search: q.search,
    status: q.status,
    organizationId: q.organization_id,
    sortBy: q.sort_by,
    includeCompleted: q.include_completed,
    completed: COMPLETED_GOAL_STATUSES,
    skip: q.skip,
    limit: q.limit,
  });
}

export const getGoal = present;

export async function createGoal(
  ctx: AppContext,
  caller: AuthUser,
  body: z.output<typeof ZCreateGoalRequest>,
): Promise<TGoal> {
  assertMemberOf((await loadViewer(ctx, caller)).levels, body.organization_id);
  const now = nowIso();
  const id = randomUUID();
  const startDate = startDateFor(body.start_date, now.slice(0, 10), body.due_date);
  await withTx(ctx.db, async (trx) => {
    await repo.insertGoal(trx, {
      id,
      user_id: caller.id,
      organization_id: body.organization_id ?? null,
      title: body.title,
      description: body.description ?? null,
      start_date: startDate,
      due_date: body.due_date,
      status: body.status,
      created_at: now,
      updated_at: now,
    });
    const kpis = kpiRows(id, body.kpis, new Set());
    await repo.replaceKpis(trx, id, kpis);
    await recordValueChanges(trx, caller.id, [], kpis);
    await renderListEntries(trx, [id]);
  });
  return present(ctx, caller, id);
}

export async function updateGoal(
  ctx: AppContext,
  caller: AuthUser,
  id: string,
  body: z.output<typeof ZUpdateGoalRequest>,
  pre: Precondition = ANY_VERSION,
): Promise<TGoal> {
  const { row, levels, canEdit } = await load(ctx, caller, id);
  if (!canEdit) throw forbidden('You cannot edit this goal.');
  pre.check(row.updated_at);
  const startDate = startDateFor(body.start_date, startDateOf(row), body.due_date);
  if (body.organization_id !== undefined && body.organization_id !== row.organization_id) {
    assertMemberOf(levels, body.organization_id);
  }
  await withTx(ctx.db, async (trx) => {
    await repo.updateGoal(trx, id, {
      title: body.title,
      due_date: body.due_date,
      ...(body.description !== undefined ? { description: body.description } : {}),
      start_date: startDate,
      ...(body.status !== undefined ? { status: body.status } : {}),
      ...(body.organization_id !== undefined ? { organization_id: body.organization_id } : {}),
      updated_at: nextVersion(row.updated_at),
    });
    if (body.kpis) {
      const existing = await repo.listKpis(trx, [id], MAX_KPIS_PER_GOAL);
      const kpis = kpiRows(id, body.kpis, new Set(existing.map((k) => k.id)));
      await repo.replaceKpis(trx, id, kpis);
      await recordValueChanges(trx, caller.id, existing, kpis);
    }
    await renderListEntries(trx, [id]);
  });
  return present(ctx, caller, id);
}

export async function deleteGoal(ctx: AppContext, caller: AuthUser, id: string): Promise<void> {
  const { canEdit } = await load(ctx, caller, id);
  if (!canEdit) throw forbidden('You cannot delete this goal.');
  await repo.deleteGoal(ctx.db, id); // KPIs cascade
}

/**
 * The viewer's open goals (not completed or failed) for the AI workspace snapshot and the Brief,
 * soonest due first, presented with every figure of goal-numbers (progress, expected progress,
 * forecasts, risk) as of `today` (default: today, UTC), so those features read the same numbers as the
 * goals API: each visibility branch of the goal policy read separately, at most `perBranch` rows each,
 * without repeats. `truncated` when a branch was cut at its limit.
 */
export async function openGoalsFor(
  ctx: AppContext,
  viewer: ViewerScope,
  o: { perBranch: number; kpisPerGoal: number; today?: string },
): Promise<{ goals: GoalFields[]; truncated: boolean }> {
  const closedStatuses = [...COMPLETED_GOAL_STATUSES, 'failed'];
  const results = await Promise.all(
    goalVisibilityBranches(viewer).map((b) =>
      repo.openGoalsOfBranch(ctx.db, b, { closedStatuses, limit: o.perBranch }),
    ),
  );
  const byId = new Map(results.flat().map((r) => [r.id, r]));
  const rows = [...byId.values()].sort(
    (a, b) => a.due_date.localeCompare(b.due_date) || a.id.localeCompare(b.id),
  );
  const kpis = await repo.listKpis(
    ctx.db,
    rows.map((r) => r.id),
    o.kpisPerGoal,
  );
  const history = await historyOf(ctx.db, kpis);
  const on = o.today ? { ...history, today: o.today } : history;
  const goals = rows.map((r) =>
    presentGoalFields(
      { ...r, organization_name: null },
      kpis.filter((k) => k.goal_id === r.id),
      on,
    ),
  );
  return { goals, truncated: results.flat().length >= o.perBranch };
}

/**
 * Citations of goals and KPIs (a KPI cites its goal) that the viewer may see; ids of records they may
 * not see, or that are gone, are left out. Keyed `goal:<id>` and `kpi:<id>`.
 */
export async function goalCitations(
  ctx: AppContext,
  viewer: ViewerScope,
  o: { goalIds: readonly string[]; kpiIds: readonly string[] },
): Promise<Map<string, TRecordCitation>> {
  const { goals, kpis } = await repo.visibleGoalTitles(ctx.db, viewer, o);
  const cite = (id: string, title: string) => ({ type: 'goal', id, title, url: citationUrl('goal', id) });
  return new Map([
    ...goals.map((g) => [`goal:${g.id}`, cite(g.id, g.title)] as const),
    ...kpis.map((k) => [`kpi:${k.kpi_id}`, cite(k.goal_id, k.title)] as const),
  ]);
}
