import { randomUUID } from 'node:crypto';
import type { TKpiCheckin, ZKpiCheckinListQuery, ZKpiCheckinRequest } from '@cc/contract';
import type { z } from 'zod';
import { nowIso, withTx } from '../../db/index.ts';
import type { KpiCheckinsTable } from '../../db/types.ts';
import type { AuthUser } from '../../platform/auth/authenticate.ts';
import { nextVersion } from '../../platform/concurrency.ts';
import type { AppContext } from '../../platform/context.ts';
import { forbidden, notFound } from '../../platform/errors.ts';
import type { ViewerScope } from '../../platform/viewer.ts';
import * as goalRepo from './goals.repository.ts';
import { renderListEntries } from './goals.list-entry.ts';
import { loadGoal, todayUtc } from './goals.service.ts';
import * as repo from './kpi-checkins.repository.ts';

/**
 * KPI check-ins (issue 20 §1): the history of a KPI's value, one per KPI per date. Who may read and
 * record them is the goal's rule (goals.policy.ts): whoever sees the goal sees its check-ins, whoever
 * may edit the goal may record one.
 */

export function presentCheckin(r: KpiCheckinsTable): TKpiCheckin {
  return {
    id: r.id,
    kpi_id: r.kpi_id,
    value: Number(r.value),
    date: r.date,
    note: r.note,
    user_id: r.user_id,
    created_at: r.created_at,
  };
}

/** The goal (visible to the caller, else 404) and its KPI `kpiId` (else 404). */
async function loadKpi(ctx: AppContext, caller: AuthUser, goalId: string, kpiId: string) {
  const goal = await loadGoal(ctx, caller, goalId);
  const kpi = await repo.findKpiOfGoal(ctx.db, goalId, kpiId);
  if (!kpi) throw notFound('KPI not found');
  return { goal, kpi };
}

export async function listCheckins(
  ctx: AppContext,
  caller: AuthUser,
  goalId: string,
  kpiId: string,
  q: z.output<typeof ZKpiCheckinListQuery>,
): Promise<TKpiCheckin[]> {
  await loadKpi(ctx, caller, goalId, kpiId);
  return (await repo.listCheckins(ctx.db, kpiId, q)).map(presentCheckin);
}

/**
 * Records the KPI's value on `date` (default today, UTC), replacing a check-in already on that date.
 * When no later check-in exists, the KPI's current value becomes this value (and the goal's version
 * moves on, so a dialog holding the old one gets a 412 instead of overwriting it).
 */
export async function recordCheckin(
  ctx: AppContext,
  caller: AuthUser,
  goalId: string,
  kpiId: string,
  body: z.output<typeof ZKpiCheckinRequest>,
): Promise<TKpiCheckin> {
  const { goal } = await loadKpi(ctx, caller, goalId, kpiId);
  if (!goal.canEdit) throw forbidden('You cannot edit this goal.');
  const date = body.date ?? todayUtc();
  return withTx(ctx.db, async (trx) => {
    const latest = await repo.latestCheckinDate(trx, kpiId);
    const row = await repo.upsertCheckin(trx, {
      id: randomUUID(),
      kpi_id: kpiId,
      value: body.value,
      date,
      note: body.note ?? null,
      user_id: caller.id,
      created_at: nowIso(),
    });
    if (latest === null || date >= latest) {
      await goalRepo.setKpiValue(trx, kpiId, body.value);
      await goalRepo.updateGoal(trx, goalId, { updated_at: nextVersion(goal.row.updated_at) });
    }
    await renderListEntries(trx, [goalId]);
    return presentCheckin(row);
  });
}

/** A check-in of a goal the viewer may see, with its KPI and goal, and the value it moved from. */
export interface VisibleCheckin extends TKpiCheckin {
  goal_id: string;
  goal_title: string;
  kpi_name: string;
  unit: string | null;
  target_value: number | null;
  /** The KPI's latest value dated before `sinceDate` (null: no earlier check-in). */
  previous_value: number | null;
}

/**
 * The check-ins dated `sinceDate` (YYYY-MM-DD) or later of the goals the viewer may see (the goal
 * policy's predicate), by goal, KPI and date; each carries the KPI's value before `sinceDate`.
 */
export async function checkinsVisibleSince(
  ctx: AppContext,
  viewer: ViewerScope,
  sinceDate: string,
): Promise<VisibleCheckin[]> {
  const rows = await repo.checkinsOfVisibleGoalsSince(ctx.db, viewer, sinceDate);
  const kpiIds = [...new Set(rows.map((r) => r.kpi_id))];
  const before = await repo.latestCheckinsBefore(ctx.db, kpiIds, sinceDate);
  const previous = new Map(before.map((b) => [b.kpi_id, Number(b.value)]));
  return rows.map((r) => ({
    ...presentCheckin(r),
    goal_id: r.goal_id,
    goal_title: r.goal_title,
    kpi_name: r.kpi_name,
    unit: r.unit,
    target_value: r.target_value === null ? null : Number(r.target_value),
    previous_value: previous.get(r.kpi_id) ?? null,
  }));
}
