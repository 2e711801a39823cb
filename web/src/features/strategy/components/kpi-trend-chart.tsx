import type { TKpi } from '@cc/contract';
import { useState } from 'react';
import { formatDay } from '../../../lib/format';

/** The drawing's coordinate space (the SVG scales to its tile's width). */
const WIDTH = 320;
const HEIGHT = 132;
const LEFT = 44;
const RIGHT = 14;
const TOP = 22;
const BOTTOM = 22;
const DOT_RADIUS = 3.5;
const DAY_MS = 86_400_000;
/** The least share of the width the check-ins take when the forecast runs far beyond them. */
const HISTORY_SHARE = 0.6;

interface KpiTrendChartProps {
  kpi: TKpi;
  /** The goal's due date: where the forecast line ends. */
  dueDate: string;
}

const dayNumber = (date: string) => Date.parse(`${date}T00:00:00Z`) / DAY_MS;
/** 1234.5 → "1234.5", 0.333 → "0.33": the figures the server states. */
const figure = (n: number) => String(Math.round(n * 100) / 100);

/**
 * A KPI's trend on a time axis: one point per check-in (hover or focus one for its date and value),
 * the target as a solid line, and the forecast (the goals API's linear trend) as a dashed line from
 * the latest check-in to the goal's due date. Dates are written as the app writes them elsewhere. A
 * single check-in is a labelled point. A small SVG of its own (a chart library's chunk passed the
 * 100 KB budget for a lazy chunk); loaded lazily (kpi-trend.tsx).
 */
export default function KpiTrendChart({ kpi, dueDate }: KpiTrendChartProps) {
  const [active, setActive] = useState<number | null>(null);
  const unit = kpi.unit ? ` ${kpi.unit}` : '';
  const forecast = kpi.forecast;
  const first = kpi.trend[0];
  const last = kpi.trend[kpi.trend.length - 1];
  const single = kpi.trend.length === 1;

  const values = kpi.trend.map((p) => p.value);
  const bounds = [...values];
  if (kpi.target_value !== null) bounds.push(kpi.target_value);
  if (forecast) bounds.push(forecast.value_at_due);
  const min = Math.min(...bounds);
  const max = Math.max(...bounds);
  const span = max - min;
  const plotW = WIDTH - LEFT - RIGHT;
  const plotH = HEIGHT - TOP - BOTTOM;
  const start = dayNumber(first.date);
  const seen = dayNumber(last.date);
  const end = forecast ? Math.max(dayNumber(dueDate), seen) : seen;
  // The check-ins keep at least HISTORY_SHARE of the width: a due date years away would otherwise
  // squeeze them into a corner. The time from the latest check-in to the due date then takes the
  // rest, and a break on the axis says the scale changes there.
  const natural = end === start ? 1 : (seen - start) / (end - start);
  const share = seen === start ? natural : Math.max(natural, HISTORY_SHARE);
  const broken = share > natural;
  const x = (date: string) => {
    const d = dayNumber(date);
    if (end === start) return LEFT + plotW / 2;
    if (!broken) return LEFT + ((d - start) / (end - start)) * plotW;
    if (d <= seen) return LEFT + ((d - start) / (seen - start)) * share * plotW;
    return LEFT + share * plotW + ((d - seen) / (end - seen)) * (1 - share) * plotW;
  };
  // A flat series (or one point level with its target) sits in the middle.
  const y = (v: number) => TOP + (span === 0 ? plotH / 2 : ((max - v) / span) * plotH);

  const points = kpi.trend.map((p) => ({
    ...p,
    cx: x(p.date),
    cy: y(p.value),
    text: `${formatDay(p.date)}: ${figure(p.value)}${unit}`,
  }));
  const path = points.map((p, i) => `${i === 0 ? 'M' : 'L'}${p.cx.toFixed(1)},${p.cy.toFixed(1)}`).join(' ');
  const endDate = forecast ? dueDate : last.date;
  const shown = active === null ? null : points[active];

  return (
    <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} className="h-auto w-full max-w-[420px]">
      <title>{`Trend of ${kpi.name}`}</title>
      {/* Value axis: the highest and lowest figure drawn. */}
      <text x={LEFT - 6} y={TOP + 4} textAnchor="end" className="fill-current text-[10px]">
        {figure(max)}
      </text>
      {span !== 0 ? (
        <text x={LEFT - 6} y={TOP + plotH + 3} textAnchor="end" className="fill-current text-[10px]">
          {figure(min)}
        </text>
      ) : null}
      {/* Time axis: the first check-in and the due date (or the latest check-in). */}
      <line
        x1={LEFT}
        x2={WIDTH - RIGHT}
        y1={HEIGHT - BOTTOM + 4}
        y2={HEIGHT - BOTTOM + 4}
        stroke="currentColor"
        strokeOpacity={0.25}
      />
      <text x={LEFT} y={HEIGHT - 6} className="kpi-trend-axis-start fill-current text-[10px]">
        {formatDay(first.date)}
      </text>
      {endDate !== first.date ? (
        <text
          x={WIDTH - RIGHT}
          y={HEIGHT - 6}
          textAnchor="end"
          className="kpi-trend-axis-end fill-current text-[10px]"
        >
          {forecast ? `Due ${formatDay(endDate)}` : formatDay(endDate)}
        </text>
      ) : null}
      {broken ? (
        <path
          className="kpi-trend-axis-break"
          d={`M${LEFT + share * plotW - 4},${HEIGHT - BOTTOM + 8} l4,-8 M${LEFT + share * plotW},${HEIGHT - BOTTOM + 8} l4,-8`}
          stroke="currentColor"
          strokeOpacity={0.6}
        />
      ) : null}
      {kpi.target_value !== null ? (
        <g className="kpi-trend-target-group">
          <line
            className="kpi-trend-target"
            x1={LEFT}
            x2={WIDTH - RIGHT}
            y1={y(kpi.target_value)}
            y2={y(kpi.target_value)}
            stroke="#fbbf24"
            strokeOpacity={0.7}
          />
          <text
            x={WIDTH - RIGHT}
            y={y(kpi.target_value) - 4}
            textAnchor="end"
            className="fill-[#fbbf24] text-[10px]"
          >
            {`Target ${figure(kpi.target_value)}${unit}`}
          </text>
        </g>
      ) : null}
      {forecast ? (
        <line
          className="kpi-trend-forecast"
          x1={x(last.date)}
          y1={y(last.value)}
          x2={x(dueDate)}
          y2={y(forecast.value_at_due)}
          stroke={forecast.on_track ? '#4ade80' : '#f87171'}
          strokeWidth={1.5}
          strokeDasharray="4 3"
        >
          <title>{`Forecast: ${figure(forecast.value_at_due)}${unit} by ${formatDay(dueDate)}`}</title>
        </line>
      ) : null}
      {single ? null : (
        <path className="kpi-trend-line" d={path} fill="none" stroke="#60a5fa" strokeWidth={2} />
      )}
      {points.map((p, i) => (
        // biome-ignore lint/a11y/noStaticElementInteractions: hover and focus only show the point's date and value, which its label already names.
        <g
          key={p.date}
          className="kpi-trend-point cursor-default outline-none"
          // Focusable, so a keyboard reads each point's date and value as a mouse does on hover.
          tabIndex={0}
          aria-label={p.text}
          onMouseEnter={() => setActive(i)}
          onMouseLeave={() => setActive(null)}
          onFocus={() => setActive(i)}
          onBlur={() => setActive(null)}
        >
          <circle
            className="kpi-trend-dot"
            cx={p.cx}
            cy={p.cy}
            r={active === i ? DOT_RADIUS + 1.5 : DOT_RADIUS}
            fill="#0f172a"
            stroke="#60a5fa"
            strokeWidth={1.5}
          >
            <title>{p.text}</title>
          </circle>
        </g>
      ))}
      {single ? (
        <text
          className="kpi-trend-point-label fill-current text-[11px]"
          x={points[0].cx}
          y={points[0].cy - 8}
          textAnchor="middle"
        >
          {`${figure(points[0].value)}${unit} on ${formatDay(points[0].date)}`}
        </text>
      ) : null}
      {shown && !single ? <Tooltip x={shown.cx} y={shown.cy} text={shown.text} /> : null}
    </svg>
  );
}

/** The hovered or focused point's date and value, kept inside the drawing. */
function Tooltip({ x, y, text }: { x: number; y: number; text: string }) {
  const w = Math.max(60, text.length * 6 + 12);
  const left = Math.min(Math.max(x - w / 2, 2), WIDTH - w - 2);
  const top = y - 26 < 0 ? y + 8 : y - 26;
  return (
    <g className="kpi-trend-tooltip" pointerEvents="none">
      <rect
        x={left}
        y={top}
        width={w}
        height={18}
        rx={3}
        fill="#0f172a"
        stroke="#60a5fa"
        strokeOpacity={0.6}
      />
      <text x={left + w / 2} y={top + 12.5} textAnchor="middle" className="fill-[#e2e8f0] text-[11px]">
        {text}
      </text>
    </g>
  );
}
