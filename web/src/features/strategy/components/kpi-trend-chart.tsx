import type { TKpi } from '@cc/contract';

/** The chart's size: a sparkline that fits a KPI tile on a phone. */
const WIDTH = 220;
const HEIGHT = 56;
const PAD = 4;
const DOT_RADIUS = 2.5;

interface KpiTrendChartProps {
  kpi: TKpi;
}

/**
 * A KPI's trend as a small line chart: one dot per check-in, evenly spaced in date order, with the
 * target as a dashed line. A small SVG of its own (a chart library's chunk passed the 100 KB budget
 * for a lazy chunk); each dot carries its date and value as a tooltip. Loaded lazily (kpi-trend.tsx).
 */
export default function KpiTrendChart({ kpi }: KpiTrendChartProps) {
  const values = kpi.trend.map((p) => p.value);
  const target = kpi.target_value;
  const bounds = target === null ? values : [...values, target];
  const min = Math.min(...bounds);
  const span = Math.max(...bounds) - min;
  const plotW = WIDTH - 2 * PAD;
  const plotH = HEIGHT - 2 * PAD;
  const x = (i: number) => PAD + (values.length === 1 ? plotW / 2 : (i * plotW) / (values.length - 1));
  // A flat series (or one point level with its target) sits in the middle.
  const y = (v: number) => PAD + (span === 0 ? plotH / 2 : ((min + span - v) / span) * plotH);
  const points = kpi.trend.map((p, i) => ({ ...p, cx: x(i), cy: y(p.value) }));
  const path = points.map((p, i) => `${i === 0 ? 'M' : 'L'}${p.cx.toFixed(1)},${p.cy.toFixed(1)}`).join(' ');
  const unit = kpi.unit ? ` ${kpi.unit}` : '';
  return (
    <svg
      width={WIDTH}
      height={HEIGHT}
      viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
      className="max-w-full"
      aria-hidden="true"
    >
      {target !== null ? (
        <line
          className="kpi-trend-target"
          x1={PAD}
          x2={WIDTH - PAD}
          y1={y(target)}
          y2={y(target)}
          stroke="currentColor"
          strokeDasharray="3 3"
          strokeOpacity={0.4}
        />
      ) : null}
      <path className="kpi-trend-line" d={path} fill="none" stroke="#60a5fa" strokeWidth={2} />
      {points.map((p) => (
        <circle
          key={p.date}
          className="kpi-trend-dot"
          cx={p.cx}
          cy={p.cy}
          r={DOT_RADIUS}
          fill="#0f172a"
          stroke="#60a5fa"
          strokeWidth={1.5}
        >
          <title>{`${p.date}: ${p.value}${unit}`}</title>
        </circle>
      ))}
    </svg>
  );
}
