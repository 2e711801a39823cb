import { useLayoutEffect, useRef, useState } from 'react';
import { usd } from '../money';

/** Drawn at the card's own width (a fixed viewBox left a narrow chart centred in a wide card). */
const DEFAULT_W = 640;
const H = 220;
const PAD = { top: 12, right: 8, bottom: 24, left: 56 };

/** Every day from `since` to `until` (YYYY-MM-DD), so days without spend show as empty. */
function daysBetween(since: string, until: string): string[] {
  const out: string[] = [];
  for (let t = Date.parse(`${since}T00:00:00Z`); t <= Date.parse(`${until}T00:00:00Z`); t += 86_400_000) {
    out.push(new Date(t).toISOString().slice(0, 10));
    if (out.length > 366) break;
  }
  return out;
}

/**
 * Spend per day as bars: a small SVG of its own (a chart library's chunk would pass the lazy-chunk
 * budget for one chart). Each bar carries its day and amount as a tooltip; the caption beside it in
 * the panel is the text alternative.
 */
export default function SpendChart({
  days,
  since,
  until,
}: {
  days: { day: string; cost_usd: number }[];
  since: string;
  until: string;
}) {
  const ref = useRef<SVGSVGElement>(null);
  const [W, setW] = useState(DEFAULT_W);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const measure = () => setW(Math.max(240, Math.round(el.getBoundingClientRect().width) || DEFAULT_W));
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, []);
  const byDay = new Map(days.map((d) => [d.day, d.cost_usd]));
  const all = daysBetween(since, until);
  const max = Math.max(0.01, ...days.map((d) => d.cost_usd));
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  const step = plotW / Math.max(1, all.length);
  const barW = Math.max(1, step * 0.7);
  // Day labels at least ~28 px apart, whatever the width.
  const labelEvery = Math.max(1, Math.ceil(28 / step));
  return (
    <svg
      ref={ref}
      viewBox={`0 0 ${W} ${H}`}
      className="block h-[220px] w-full"
      role="img"
      aria-label="Spend per day"
    >
      {[0, 0.5, 1].map((f) => {
        const y = PAD.top + plotH * (1 - f);
        return (
          <g key={f}>
            <line x1={PAD.left} x2={W - PAD.right} y1={y} y2={y} stroke="#233052" strokeDasharray="3 3" />
            <text x={PAD.left - 6} y={y + 4} textAnchor="end" fontSize="11" fill="#94a3b8">
              {usd(max * f)}
            </text>
          </g>
        );
      })}
      {all.map((day, i) => {
        const cost = byDay.get(day) ?? 0;
        const h = (cost / max) * plotH;
        const x = PAD.left + i * step + (step - barW) / 2;
        const n = Number(day.slice(8));
        const spent = byDay.has(day);
        return (
          <g key={day} data-day={day}>
            <rect
              x={x}
              y={PAD.top + plotH - h}
              width={barW}
              height={Math.max(h, spent ? 1 : 0)}
              fill="#f5b841"
            >
              <title>{`${day}: ${usd(cost)}`}</title>
            </rect>
            {n === 1 || n % labelEvery === 0 ? (
              <text x={x + barW / 2} y={H - 8} textAnchor="middle" fontSize="11" fill="#94a3b8">
                {day.slice(8)}
              </text>
            ) : null}
          </g>
        );
      })}
    </svg>
  );
}
