import {
  goalProgress,
  isKpiStale,
  kpiStaleFrom,
  type TGoal,
  type TGoalStatus,
  type TKpi,
} from '@cc/contract';
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

/** A goal as the API presents it without the caller's rights: what its stored list entry holds. */
export type GoalFields = Omit<TGoal, 'can_edit' | 'can_delete'>;

/** The goal's fields; `progress` comes from the contract's goalProgress (one implementation). */
export function presentGoalFields(row: GoalRow, kpiRows: GoalKpisTable[], history: KpiHistory): GoalFields {
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
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** The API shape of a goal, with the caller's rights (last, as a list entry adds them). */
export function presentGoal(
  row: GoalRow,
  kpiRows: GoalKpisTable[],
  rights: { canEdit: boolean },
  history: KpiHistory,
): TGoal {
  return {
    ...presentGoalFields(row, kpiRows, history),
    can_edit: rights.canEdit,
    can_delete: rights.canEdit,
  };
}

/**
 * A goal's stored list entry (strategic_goals.list_json) and the days it holds for: from the day it
 * is rendered for up to the first day one of its KPIs that is not stale yet turns stale (null: no day
 * changes it).
 */
export function goalListEntry(
  row: GoalRow,
  kpiRows: GoalKpisTable[],
  history: KpiHistory,
): { list_json: string; list_from: string; list_until: string | null } {
  const fields = presentGoalFields(row, kpiRows, history);
  let until: string | null = null;
  for (const k of fields.kpis) {
    const from = k.stale ? null : kpiStaleFrom(k.last_checkin_date);
    if (from !== null && (until === null || from < until)) until = from;
  }
  return { list_json: JSON.stringify(fields), list_from: history.today, list_until: until };
}

/** Whether a stored entry holds on `today` (see {@link goalListEntry}). */
export function entryHolds(
  e: { list_json: string | null; list_from: string | null; list_until: string | null },
  today: string,
): e is { list_json: string; list_from: string; list_until: string | null } {
  return (
    e.list_json !== null &&
    e.list_from !== null &&
    e.list_from <= today &&
    (e.list_until === null || today < e.list_until)
  );
}

/** The JSON text of the rights a list entry ends with (can_edit and can_delete are the same right). */
const RIGHTS_TAIL = [false, true].map((b) => `,"can_edit":${b},"can_delete":${b}}`);

/** A stored list entry with the caller's rights added: the same object as {@link presentGoal}'s. */
export function withRights(listJson: string, rights: { canEdit: boolean }): string {
  return listJson.slice(0, -1) + RIGHTS_TAIL[rights.canEdit ? 1 : 0];
}
