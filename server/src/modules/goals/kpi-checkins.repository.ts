import { sql } from 'kysely';
import type { Db } from '../../db/index.ts';
import type { KpiCheckinsTable } from '../../db/types.ts';
import type { ViewerScope } from '../../platform/viewer.ts';
import { visibleGoals } from './goals.policy.ts';

/**
 * Records the KPI's value on `row.date`; a check-in already on that date is replaced (its value, note,
 * author and time; it keeps its id). Returns the stored row.
 */
export async function upsertCheckin(db: Db, row: KpiCheckinsTable): Promise<KpiCheckinsTable> {
  await db
    .insertInto('kpi_checkins')
    .values(row)
    .onConflict((oc) =>
      oc.columns(['kpi_id', 'date']).doUpdateSet({
        value: row.value,
        note: row.note,
        user_id: row.user_id,
        created_at: row.created_at,
      }),
    )
    .execute();
  return db
    .selectFrom('kpi_checkins')
    .selectAll()
    .where('kpi_id', '=', row.kpi_id)
    .where('date', '=', row.date)
    .executeTakeFirstOrThrow();
}

/** The KPI `kpiId` when it belongs to goal `goalId`. */
export function findKpiOfGoal(db: Db, goalId: string, kpiId: string) {
  return db
    .selectFrom('goal_kpis')
    .selectAll()
    .where('id', '=', kpiId)
    .where('goal_id', '=', goalId)
    .executeTakeFirst();
}

/** A KPI's check-ins, oldest first (kpi_checkins_kpi_date_idx). */
export function listCheckins(
  db: Db,
  kpiId: string,
  page: { skip: number; limit: number },
): Promise<KpiCheckinsTable[]> {
  return db
    .selectFrom('kpi_checkins')
    .selectAll()
    .where('kpi_id', '=', kpiId)
    .orderBy('date')
    .offset(page.skip)
    .limit(page.limit)
    .execute();
}

/** The date of the KPI's latest check-in, or null. */
export async function latestCheckinDate(db: Db, kpiId: string): Promise<string | null> {
  const row = await db
    .selectFrom('kpi_checkins')
    .select('date')
    .where('kpi_id', '=', kpiId)
    .orderBy('date', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.date ?? null;
}

/**
 * The latest `perKpi` check-ins of each of these KPIs (one query for a page of goals; the window reads
 * each KPI's range of kpi_checkins_kpi_date_idx), by KPI then date.
 */
export function recentCheckins(
  db: Db,
  kpiIds: readonly string[],
  perKpi: number,
): Promise<Pick<KpiCheckinsTable, 'kpi_id' | 'date' | 'value'>[]> {
  if (kpiIds.length === 0) return Promise.resolve([]);
  const ranked = db
    .selectFrom('kpi_checkins')
    .select([
      'kpi_id',
      'date',
      'value',
      sql<number>`row_number() over (partition by kpi_id order by date desc)`.as('rn'),
    ])
    .where('kpi_id', 'in', [...kpiIds]);
  return db
    .selectFrom(ranked.as('r'))
    .select(['r.kpi_id', 'r.date', 'r.value'])
    .where('r.rn', '<=', perKpi)
    .orderBy('r.kpi_id')
    .orderBy('r.date')
    .execute();
}

/** A check-in with the KPI and goal it belongs to (the brief's "KPI moves" read this). */
export interface VisibleCheckinRow extends KpiCheckinsTable {
  goal_id: string;
  goal_title: string;
  kpi_name: string;
  unit: string | null;
  target_value: number | null;
}

/** The check-ins dated `sinceDate` or later of the goals the viewer may see (goals.policy), by goal, KPI, date. */
export function checkinsOfVisibleGoalsSince(
  db: Db,
  viewer: ViewerScope,
  sinceDate: string,
): Promise<VisibleCheckinRow[]> {
  return db
    .selectFrom('kpi_checkins')
    .innerJoin('goal_kpis', 'goal_kpis.id', 'kpi_checkins.kpi_id')
    .innerJoin('strategic_goals', 'strategic_goals.id', 'goal_kpis.goal_id')
    .where(visibleGoals(viewer))
    .where('kpi_checkins.date', '>=', sinceDate)
    .selectAll('kpi_checkins')
    .select([
      'strategic_goals.id as goal_id',
      'strategic_goals.title as goal_title',
      'goal_kpis.name as kpi_name',
      'goal_kpis.unit as unit',
      'goal_kpis.target_value as target_value',
    ])
    .orderBy('strategic_goals.id')
    .orderBy('goal_kpis.position')
    .orderBy('kpi_checkins.date')
    .execute();
}

/** Each KPI's latest check-in dated before `date` (the baseline a move is measured from). */
export function latestCheckinsBefore(
  db: Db,
  kpiIds: readonly string[],
  date: string,
): Promise<KpiCheckinsTable[]> {
  if (kpiIds.length === 0) return Promise.resolve([]);
  const ranked = db
    .selectFrom('kpi_checkins')
    .selectAll()
    .select(sql<number>`row_number() over (partition by kpi_id order by date desc)`.as('rn'))
    .where('kpi_id', 'in', [...kpiIds])
    .where('date', '<', date);
  return db
    .selectFrom(ranked.as('r'))
    .select(['r.id', 'r.kpi_id', 'r.value', 'r.date', 'r.note', 'r.user_id', 'r.created_at'])
    .where('r.rn', '=', 1)
    .execute();
}
