import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { usd } from '../money';

/** Spend per day as bars. Loaded lazily (recharts is heavy): see usage-spend-panel.tsx. */
export default function SpendChart({ days }: { days: { day: string; cost_usd: number }[] }) {
  const data = days.map((d) => ({ day: d.day.slice(8), date: d.day, cost: d.cost_usd }));
  return (
    <ResponsiveContainer width="100%" height={220}>
      <BarChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
        <CartesianGrid strokeDasharray="3 3" stroke="#233052" vertical={false} />
        <XAxis dataKey="day" stroke="#94a3b8" fontSize={12} />
        <YAxis stroke="#94a3b8" fontSize={12} tickFormatter={(v: number) => usd(v)} width={64} />
        <Tooltip
          formatter={(v) => usd(Number(v))}
          labelFormatter={(_, p) => String(p?.[0]?.payload?.date ?? '')}
          contentStyle={{ background: '#0f172a', border: '1px solid #233052' }}
        />
        <Bar dataKey="cost" name="Spend" fill="#f5b841" isAnimationActive={false} />
      </BarChart>
    </ResponsiveContainer>
  );
}
