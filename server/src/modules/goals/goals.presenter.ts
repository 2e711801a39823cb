import { goalProgress, isKpiStale, type TGoal, type TGoalStatus, type TKpi } from '@cc/contract';
import type { GoalKpisTable } from '../../db/types.ts';
import type { GoalRow } from './goals.repository.ts';

/** A KPI's trend: its latest check-ins, oldest first. */
export type KpiTrend = TKpi['trend'];
/** What the presenter needs beyond the rows: each KPI's trend and today's date (for `stale`). */
export interface KpiHistory {
  trends: ReadonlyMap<string, KpiTrend>;
  today: string;
}

export function presentKpi(k: GoalKpisTable, history: KpiHistory): TKpi {
  const trend = history.trends.get(k.id) ?? [];
  const last = trend.length ? trend[trend.length - 1].date : null;
  return {
    id: k.id,
    name: k.name,
    current_value: Number(k.current_value),
    target_value: k.target_value === null ? null : Number(k.target_value),
    unit: k.unit,
    last_checkin_date: last,
    stale: isKpiStale(last, history.today),
    trend,
  };
}

/** The API shape of a goal; `progress` comes from the contract's goalProgress (one implementation). */
export function presentGoal(
  row: GoalRow,
  kpiRows: GoalKpisTable[],
  rights: { canEdit: boolean },
  history: KpiHistory,
): TGoal {
  const kpis = kpiRows.map((k) => presentKpi(k, history));
  return {
    id: row.id,
    user_id: row.user_id,
    title: row.title,
    description: row.description,
    due_date: row.due_date,
    status: row.status as TGoalStatus,
    organization_id: row.organization_id,
    organization_name: row.organization_name ?? null,
    kpis,
    progress: goalProgress(kpis),
    can_edit: rights.canEdit,
    can_delete: rights.canEdit,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
