import { KPI_TREND_POINTS } from '@cc/contract';
import { type Db, nowIso } from '../../db/index.ts';
import type { GoalKpisTable } from '../../db/types.ts';
import type { KpiHistory, KpiTrend } from './goals.presenter.ts';
import * as checkinRepo from './kpi-checkins.repository.ts';

/** Today's date (UTC, YYYY-MM-DD): the default date of a check-in and the day `stale` is judged on. */
export const todayUtc = () => nowIso().slice(0, 10);

/** The trends of these KPIs (one query for all of them) and today's date, for the presenter. */
export async function historyOf(db: Db, kpis: readonly GoalKpisTable[]): Promise<KpiHistory> {
  const rows = await checkinRepo.recentCheckins(
    db,
    kpis.map((k) => k.id),
    KPI_TREND_POINTS,
  );
  const trends = new Map<string, KpiTrend>();
  for (const r of rows) {
    const list = trends.get(r.kpi_id) ?? [];
    list.push({ date: r.date, value: Number(r.value) });
    trends.set(r.kpi_id, list);
  }
  return { trends, today: todayUtc() };
}
