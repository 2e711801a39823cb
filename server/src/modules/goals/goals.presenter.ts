import { goalNumbers, type TGoal, type TGoalStatus, type TKpi, type TKpiDirection } from '@cc/contract';
import type { GoalKpisTable } from '../../db/types.ts';
import type { GoalRow } from './goals.repository.ts';

/** A KPI's trend: its latest check-ins, oldest first. */
export type KpiTrend = TKpi['trend'];
/** What the presenter needs beyond the rows: each KPI's trend and today's date (for `stale`). */
export interface KpiHistory {
  trends: ReadonlyMap<string, KpiTrend>;
  today: string;
}

/** A goal as the API presents it without the caller's rights: what its stored list entry holds. */
export type GoalFields = Omit<TGoal, 'can_edit' | 'can_delete'>;

/** A goal that has no start date stored starts the day it was created. */
export const startDateOf = (row: { start_date: string | null; created_at: string }) =>
  row.start_date ?? row.created_at.slice(0, 10);

/**
 * The goal's fields and the first day one of them changes with the date alone (null: none does).
 * Every figure (progress, expected progress, forecast, risk, stale) comes from the contract's
 * goalNumbers, the one implementation.
 */
export function presentGoalNumbers(
  row: GoalRow,
  kpiRows: GoalKpisTable[],
  history: KpiHistory,
): { fields: GoalFields; changesOn: string | null } {
  const values = kpiRows.map((k) => ({
    name: k.name,
    unit: k.unit,
    current_value: Number(k.current_value),
    target_value: k.target_value === null ? null : Number(k.target_value),
    direction: k.direction as TKpiDirection,
    trend: history.trends.get(k.id) ?? [],
  }));
  const startDate = startDateOf(row);
  const n = goalNumbers(
    { status: row.status, start_date: startDate, due_date: row.due_date, kpis: values },
    history.today,
  );
  const kpis: TKpi[] = kpiRows.map((k, i) => ({
    id: k.id,
    name: k.name,
    current_value: values[i].current_value,
    target_value: values[i].target_value,
    unit: k.unit,
    direction: values[i].direction,
    progress: n.kpis[i].progress,
    last_checkin_date: n.kpis[i].last_checkin_date,
    stale: n.kpis[i].stale,
    trend: values[i].trend,
    forecast: n.kpis[i].forecast,
  }));
  const fields: GoalFields = {
    id: row.id,
    user_id: row.user_id,
    title: row.title,
    description: row.description,
    start_date: startDate,
    due_date: row.due_date,
    status: row.status as TGoalStatus,
    organization_id: row.organization_id,
    organization_name: row.organization_name ?? null,
    kpis,
    progress: n.progress,
    expected_progress: n.expected_progress,
    risk: n.risk,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
  return { fields, changesOn: n.changes_on };
}

export const presentGoalFields = (row: GoalRow, kpiRows: GoalKpisTable[], history: KpiHistory) =>
  presentGoalNumbers(row, kpiRows, history).fields;

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
 * is rendered for up to the first day a figure changes with the date alone (a KPI turns stale, the
 * expected progress moves along its line, and the risk with them; null: no day changes it).
 */
export function goalListEntry(
  row: GoalRow,
  kpiRows: GoalKpisTable[],
  history: KpiHistory,
): { list_json: string; list_from: string; list_until: string | null } {
  const { fields, changesOn } = presentGoalNumbers(row, kpiRows, history);
  return { list_json: JSON.stringify(fields), list_from: history.today, list_until: changesOn };
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
