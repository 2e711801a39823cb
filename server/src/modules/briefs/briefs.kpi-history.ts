import type { AppContext } from '../../platform/context.ts';
import type { FactCheckin } from './briefs.facts.ts';

/** The check-ins of these KPIs created before `until` (KPI history, issue 20 section 1). */
export async function kpiCheckinsUntil(
  _ctx: AppContext,
  _kpiIds: readonly string[],
  _until: string,
): Promise<FactCheckin[]> {
  return [];
}

/** Tasks linked to these goals that were done in [since, until) and that the viewer may see. */
export async function doneTasksOfGoals(
  _ctx: AppContext,
  _viewer: { id: string; orgIds: readonly string[] },
  _goalIds: readonly string[],
  _since: string,
  _until: string,
  _limit: number,
): Promise<{ id: string; title: string; goal_id: string }[]> {
  return [];
}
