import { z } from 'zod';
import { MAX_PAGE_SIZE, ZSkip } from './common.ts';
import { ZDateOnly, ZOptionalText } from './fields.ts';

/** A KPI is marked stale when its latest check-in is older than this many days (issue 20 §1). */
export const KPI_STALE_DAYS = 14;
/** The trend a goal carries for each KPI: its latest check-ins, at most this many (oldest first). */
export const KPI_TREND_POINTS = 30;

/** One recorded value of a KPI on one date (one per KPI per date). */
export const ZKpiCheckin = z.object({
  id: z.string(),
  kpi_id: z.string(),
  value: z.number(),
  /** YYYY-MM-DD */
  date: z.string(),
  note: z.string().nullable(),
  user_id: z.string().nullable(),
  created_at: z.string(),
});
export type TKpiCheckin = z.infer<typeof ZKpiCheckin>;

/** POST /api/strategic-goals/{id}/kpis/{kpiId}/checkins: date defaults to today (UTC). */
export const ZKpiCheckinRequest = z.strictObject({
  value: z.number({ message: 'KPI values must be numbers' }).finite('KPI values must be numbers'),
  date: ZDateOnly.optional(),
  note: ZOptionalText(1000).optional(),
});
export type TKpiCheckinRequest = z.input<typeof ZKpiCheckinRequest>;

export const ZKpiCheckinParams = z.object({
  id: z.string().min(1).max(64),
  kpiId: z.string().min(1).max(64),
});

/** GET …/checkins: oldest first, paginated. */
export const ZKpiCheckinListQuery = z.object({
  skip: ZSkip,
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(100),
});

/** Whole days from `date` (YYYY-MM-DD) to `today` (YYYY-MM-DD). */
function daysBetween(date: string, today: string): number {
  return Math.round((Date.parse(`${today}T00:00:00Z`) - Date.parse(`${date}T00:00:00Z`)) / 86_400_000);
}

/**
 * Stale: no check-in at all, or the latest is KPI_STALE_DAYS or more days old (checked in on the 10th,
 * stale on the 24th: fourteen days passed without one). Server and web use this one rule.
 */
export function isKpiStale(lastCheckinDate: string | null, today: string): boolean {
  return lastCheckinDate === null || daysBetween(lastCheckinDate, today) >= KPI_STALE_DAYS;
}

/**
 * The first day (YYYY-MM-DD) a KPI last checked in on `lastCheckinDate` is stale ({@link isKpiStale}
 * holds from then on); null without a check-in (stale every day). A stored goal entry holds until then.
 */
export function kpiStaleFrom(lastCheckinDate: string | null): string | null {
  if (lastCheckinDate === null) return null;
  const day = Date.parse(`${lastCheckinDate}T00:00:00Z`) + KPI_STALE_DAYS * 86_400_000;
  return new Date(day).toISOString().slice(0, 10);
}
