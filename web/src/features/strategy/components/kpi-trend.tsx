import type { TKpi } from '@cc/contract';
import { lazy, Suspense } from 'react';

const KpiTrendChart = lazy(() => import('./kpi-trend-chart'));

/** Shown beside a KPI without a check-in for KPI_STALE_DAYS days (the server decides `stale`). */
export const KPI_STALE_LABEL = 'Stale';
export const KPI_STALE_HINT = 'No check-in for 14 days';

export function KpiStaleMark({ kpi }: { kpi: TKpi }) {
  if (!kpi.stale) return null;
  return (
    <>
      <span
        className="rounded-sm bg-primary/15 px-1.5 py-0.5 text-[10px] font-semibold uppercase tracking-wide text-primary"
        title={KPI_STALE_HINT}
      >
        {KPI_STALE_LABEL}
      </span>
      <span className="sr-only">
        {kpi.name}: {KPI_STALE_HINT.toLowerCase()}
      </span>
    </>
  );
}

/**
 * A KPI's trend: the chart once its code has loaded (a same-sized placeholder until then), or a line
 * of text when there is nothing to draw. The forecast runs to the goal's due date.
 */
export function KpiTrend({ kpi, dueDate }: { kpi: TKpi; dueDate: string }) {
  if (kpi.trend.length === 0) {
    return <p className="text-xs text-muted-foreground">No check-ins yet.</p>;
  }
  return (
    <figure
      aria-label={`Trend of ${kpi.name}`}
      data-testid="kpi-trend"
      data-points={kpi.trend.length}
      className="m-0 w-full text-muted-foreground"
    >
      <Suspense fallback={<div className="aspect-[320/132] w-full max-w-[420px]" aria-hidden="true" />}>
        <KpiTrendChart kpi={kpi} dueDate={dueDate} />
      </Suspense>
    </figure>
  );
}
