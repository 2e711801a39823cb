import type { TKpi } from '@cc/contract';
import { Line, LineChart, ReferenceLine, Tooltip, YAxis } from 'recharts';

/** The chart's size: a sparkline that fits a KPI tile on a phone. */
const WIDTH = 220;
const HEIGHT = 56;

interface KpiTrendChartProps {
  kpi: TKpi;
}

/**
 * A KPI's trend as a small line chart, one dot per check-in, with the target as a dashed line. Its own
 * module, loaded lazily (kpi-trend.tsx), so recharts stays out of every page that shows no chart.
 */
export default function KpiTrendChart({ kpi }: KpiTrendChartProps) {
  const values = kpi.trend.map((p) => p.value);
  const target = kpi.target_value;
  const bounds = target === null ? values : [...values, target];
  return (
    <LineChart
      width={WIDTH}
      height={HEIGHT}
      data={kpi.trend}
      margin={{ top: 4, right: 4, bottom: 4, left: 4 }}
      className="max-w-full"
    >
      <YAxis hide domain={[Math.min(...bounds), Math.max(...bounds)]} />
      {target !== null ? (
        <ReferenceLine y={target} stroke="currentColor" strokeDasharray="3 3" strokeOpacity={0.4} />
      ) : null}
      <Tooltip
        formatter={(v) => [`${v}${kpi.unit ? ` ${kpi.unit}` : ''}`, kpi.name]}
        labelFormatter={(_label, payload) => payload?.[0]?.payload?.date ?? ''}
      />
      <Line
        type="monotone"
        dataKey="value"
        stroke="#60a5fa"
        strokeWidth={2}
        dot={{ r: 2.5 }}
        isAnimationActive={false}
      />
    </LineChart>
  );
}
