import { isKpiStale, kpiStaleFrom } from './kpi-checkins.ts';
import { unitAfter } from './wording.ts';

/**
 * What a goal's numbers mean (issue 47 §1), the one implementation: KPI progress by direction, the
 * progress expected today on the straight line from the goal's start to its due date, each KPI's
 * forecast from its check-ins, and the goal's risk with its reasons. The API presents these figures
 * (goals.presenter.ts) and every feature (the Brief, task suggestions, advice, chat, the dashboard,
 * the Strategy page) reads them from there, so they all name the same goals with the same figures.
 */

export const KPI_DIRECTIONS = ['higher_is_better', 'lower_is_better'] as const;
export type TKpiDirection = (typeof KPI_DIRECTIONS)[number];
export const DEFAULT_KPI_DIRECTION: TKpiDirection = 'higher_is_better';
export const KPI_DIRECTION_LABELS: Record<TKpiDirection, string> = {
  higher_is_better: 'Higher is better',
  lower_is_better: 'Lower is better',
};

/**
 * A goal is behind the straight line when its progress is more than this many points below the
 * progress expected today (a point or two behind the line is noise, not a risk).
 */
export const BEHIND_TOLERANCE_POINTS = 10;

/** Goals in these statuses are judged for risk; a done or failed goal is settled. */
const OPEN_STATUSES = new Set(['new', 'in_progress']);

const DAY_MS = 86_400_000;
const finite = (n: number | null | undefined): n is number => typeof n === 'number' && Number.isFinite(n);
const dayNumber = (date: string) => Date.parse(`${date}T00:00:00Z`) / DAY_MS;
const dateOfDay = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);
/** 1234.5 → "1234.5", 0.333333 → "0.33": at most two decimals, as the Brief writes numbers. */
export const formatFigure = (n: number) => String(Math.round(n * 100) / 100);

export interface KpiValues {
  current_value?: number | null;
  target_value?: number | null;
  direction?: TKpiDirection | string | null;
}

const isLower = (k: KpiValues) => k.direction === 'lower_is_better';

/**
 * KPI progress in percent, 0 to 100 (not rounded). higher_is_better: current / target, capped at 100;
 * a KPI without a positive target counts 0. lower_is_better: 100 when current ≤ target, else
 * target / current; a KPI without a target, or above a target of zero or less, counts 0.
 */
export function kpiProgress(kpi: KpiValues): number {
  const { current_value: current, target_value: target } = kpi;
  if (!finite(target) || !finite(current)) return 0;
  if (isLower(kpi)) {
    if (current <= target) return 100;
    if (target <= 0) return 0;
    return Math.min(100, Math.max(0, (target / current) * 100));
  }
  if (target <= 0) return 0;
  return Math.min(100, Math.max(0, (current / target) * 100));
}

/** Goal progress: the average of its KPIs' progress, capped at 100 and rounded; no KPIs → 0. */
export function goalProgress(kpis: readonly KpiValues[] | null | undefined): number {
  if (!kpis || kpis.length === 0) return 0;
  const sum = kpis.reduce((acc, k) => acc + kpiProgress(k), 0);
  return Math.min(100, Math.round(sum / kpis.length));
}

/**
 * Progress expected on `today` (rounded percent) on the straight line from `start` (0) to `due`
 * (100), all YYYY-MM-DD: 0 before the start, 100 from the due date on.
 */
export function expectedProgress(start: string, due: string, today: string): number {
  const s = dayNumber(start);
  const d = dayNumber(due);
  const t = dayNumber(today);
  if (t >= d) return 100;
  if (t <= s) return 0;
  return Math.round(((t - s) / (d - s)) * 100);
}

/**
 * The first day after `today` on which {@link expectedProgress} differs from today's, or null when it
 * never changes again (due date reached). A stored goal entry holds until then.
 */
export function expectedProgressChangesOn(start: string, due: string, today: string): string | null {
  const now = expectedProgress(start, due, today);
  const d = dayNumber(due);
  // Before the start the value stays 0 until the day after it; the line then moves at least one
  // point every (span / 100) days, so this loop is short.
  for (let day = Math.max(dayNumber(today) + 1, dayNumber(start) + 1); day <= d; day++) {
    if (expectedProgress(start, due, dateOfDay(day)) !== now) return dateOfDay(day);
  }
  return null;
}

export interface TrendPoint {
  date: string;
  value: number;
}
export interface TKpiForecast {
  /** The value the check-ins' straight-line trend reaches on the goal's due date (two decimals). */
  value_at_due: number;
  /** value_at_due meets the target in the KPI's direction; a KPI without a target cannot miss it. */
  on_track: boolean;
}

/**
 * The forecast of a KPI from its check-ins (least squares over the days): null with fewer than two.
 */
export function kpiForecast(
  kpi: KpiValues & { trend: readonly TrendPoint[] },
  due: string,
): TKpiForecast | null {
  const points = kpi.trend.filter((p) => finite(p.value));
  if (points.length < 2) return null;
  const xs = points.map((p) => dayNumber(p.date));
  const ys = points.map((p) => p.value);
  const n = points.length;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let sxy = 0;
  let sxx = 0;
  for (let i = 0; i < n; i++) {
    sxy += (xs[i] - mx) * (ys[i] - my);
    sxx += (xs[i] - mx) ** 2;
  }
  const slope = sxx === 0 ? 0 : sxy / sxx;
  const raw = my + slope * (dayNumber(due) - mx);
  const value = Math.round(raw * 100) / 100;
  const target = kpi.target_value;
  const onTrack = !finite(target) || (isLower(kpi) ? value <= target : value >= target);
  return { value_at_due: Object.is(value, -0) ? 0 : value, on_track: onTrack };
}

export interface RiskKpi extends KpiValues {
  name: string;
  unit?: string | null;
  last_checkin_date: string | null;
  forecast: TKpiForecast | null;
}
export interface TGoalRisk {
  at_risk: boolean;
  /** Each a plain sentence fragment with its figures, e.g. "12% done, 40% expected by today". */
  reasons: string[];
}

/** A figure with its unit, singular at 1 ("1 customer"). */
export function withUnit(n: number, unit: string | null | undefined): string {
  const figure = formatFigure(n);
  return unit ? `${figure} ${unitAfter(Number(figure), unit)}` : figure;
}

/**
 * Why a goal is at risk: behind the straight line (by more than {@link BEHIND_TOLERANCE_POINTS}, judged
 * when a KPI has a target), a KPI whose forecast misses its target, a stale KPI. Done and failed goals
 * are settled: never at risk.
 */
export function goalRisk(
  goal: { status: string; progress: number; expected_progress: number; kpis: readonly RiskKpi[] },
  today: string,
): TGoalRisk {
  if (!OPEN_STATUSES.has(goal.status)) return { at_risk: false, reasons: [] };
  const reasons: string[] = [];
  const measurable = goal.kpis.some((k) => finite(k.target_value));
  if (measurable && goal.progress < goal.expected_progress - BEHIND_TOLERANCE_POINTS) {
    reasons.push(`${goal.progress}% done, ${goal.expected_progress}% expected by today`);
  }
  for (const k of goal.kpis) {
    if (k.forecast && !k.forecast.on_track && finite(k.target_value)) {
      const side = isLower(k) ? 'above' : 'short of';
      reasons.push(
        `KPI “${k.name}” is forecast at ${withUnit(k.forecast.value_at_due, k.unit)} by the due date, ${side} its target of ${withUnit(k.target_value, k.unit)}`,
      );
    }
  }
  for (const k of goal.kpis) {
    if (!isKpiStale(k.last_checkin_date, today)) continue;
    reasons.push(
      k.last_checkin_date
        ? `KPI “${k.name}” has had no check-in since ${k.last_checkin_date}`
        : `KPI “${k.name}” was never checked in`,
    );
  }
  return { at_risk: reasons.length > 0, reasons };
}

/** The KPI's figures as the API presents them (see ZKpi). */
export interface KpiNumbers {
  progress: number;
  last_checkin_date: string | null;
  stale: boolean;
  forecast: TKpiForecast | null;
}
export interface GoalNumbersInput {
  status: string;
  start_date: string;
  due_date: string;
  kpis: readonly (KpiValues & { name: string; unit?: string | null; trend: readonly TrendPoint[] })[];
}
export interface GoalNumbers {
  progress: number;
  expected_progress: number;
  kpis: KpiNumbers[];
  risk: TGoalRisk;
  /** The first day one of these figures changes with the date alone (null: none does). */
  changes_on: string | null;
}

/** Every figure of a goal on `today` (YYYY-MM-DD): the one entry point the presenter calls. */
export function goalNumbers(goal: GoalNumbersInput, today: string): GoalNumbers {
  const kpis = goal.kpis.map((k) => {
    const last = k.trend.length ? k.trend[k.trend.length - 1].date : null;
    return {
      progress: Math.round(kpiProgress(k)),
      last_checkin_date: last,
      stale: isKpiStale(last, today),
      forecast: kpiForecast(k, goal.due_date),
    };
  });
  const progress = goalProgress(goal.kpis);
  const expected = expectedProgress(goal.start_date, goal.due_date, today);
  const risk = goalRisk(
    {
      status: goal.status,
      progress,
      expected_progress: expected,
      kpis: goal.kpis.map((k, i) => ({ ...k, ...kpis[i] })),
    },
    today,
  );
  let changesOn = expectedProgressChangesOn(goal.start_date, goal.due_date, today);
  for (const k of kpis) {
    const from = k.stale ? null : kpiStaleFrom(k.last_checkin_date);
    if (from !== null && (changesOn === null || from < changesOn)) changesOn = from;
  }
  return { progress, expected_progress: expected, kpis, risk, changes_on: changesOn };
}

/**
 * A KPI that holds its at-risk goal back (what task suggestions and advice act on): it has a target
 * and is below the progress expected today, or its forecast misses the target. Only KPIs of goals at
 * risk lag, so every feature names the same goals.
 */
export function isKpiLagging(
  goal: { expected_progress: number; risk: TGoalRisk },
  kpi: { target_value: number | null; progress: number; forecast: TKpiForecast | null },
): boolean {
  if (!goal.risk.at_risk || !finite(kpi.target_value)) return false;
  return kpi.progress < goal.expected_progress || kpi.forecast?.on_track === false;
}
