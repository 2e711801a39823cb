import type { AppContext } from '../../platform/context.ts';
import type { Viewer } from '../../platform/viewer.ts';
import { checkinsVisibleSince } from '../goals/kpi-checkins.service.ts';
import { doneTasksOfGoals as doneTasks } from '../tasks/tasks.service.ts';
import type { FactCheckin } from './briefs.facts.ts';

/** Stands for "a value from before the period" (the KPI's latest check-in dated before it). */
const BEFORE = '0000-00-00T00:00:00.000Z';

/**
 * The check-ins of these KPIs dated from the period's start, plus each KPI's value before it (as one
 * check-in from before the period). (Staleness is the goals API's `risk`.) Read through
 * the goals module, whose policy decides which goals the viewer sees.
 */
export async function kpiHistory(
  ctx: AppContext,
  viewer: Viewer,
  kpiIds: readonly string[],
  periodStart: string,
): Promise<{ checkins: FactCheckin[] }> {
  if (!kpiIds.length) return { checkins: [] };
  const wanted = new Set(kpiIds);
  const rows = await checkinsVisibleSince(ctx, viewer, periodStart.slice(0, 10));
  const checkins: FactCheckin[] = [];
  const baselined = new Set<string>();
  for (const r of rows) {
    if (!wanted.has(r.kpi_id)) continue;
    if (r.previous_value !== null && !baselined.has(r.kpi_id)) {
      baselined.add(r.kpi_id);
      checkins.push({ kpi_id: r.kpi_id, value: r.previous_value, date: '0000-00-00', created_at: BEFORE });
    }
    checkins.push({ kpi_id: r.kpi_id, value: r.value, date: r.date, created_at: r.created_at });
  }
  return { checkins };
}

/** Tasks linked to these goals that were done in [since, until) and that the viewer may see. */
export function doneTasksOfGoals(
  ctx: AppContext,
  viewer: Viewer,
  goalIds: readonly string[],
  since: string,
  until: string,
  limit: number,
): Promise<{ id: string; title: string; goal_id: string }[]> {
  return doneTasks(ctx, viewer, goalIds, { since, until }, limit);
}
