import type { TKpi } from '@cc/contract';
import { render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { KpiStaleMark, KpiTrend } from './components/kpi-trend';

function makeKpi(over: Partial<TKpi> = {}): TKpi {
  return {
    id: 'k1',
    name: 'ARR',
    current_value: 40,
    target_value: 100,
    unit: 'k€',
    last_checkin_date: '2026-11-20',
    stale: false,
    trend: [
      { date: '2026-11-01', value: 10 },
      { date: '2026-11-08', value: 25 },
      { date: '2026-11-20', value: 40 },
    ],
    ...over,
  };
}

describe('KPI trend', () => {
  it('draws one dot per check-in on one line, once the chart code has loaded', async () => {
    const { container } = render(<KpiTrend kpi={makeKpi()} />);
    const figure = screen.getByRole('figure', { name: 'Trend of ARR' });
    expect(figure).toHaveAttribute('data-points', '3');
    await waitFor(() => expect(container.querySelectorAll('.recharts-line-dot')).toHaveLength(3));
    const line = container.querySelector('.recharts-line-curve');
    expect(line?.getAttribute('d')).toMatch(/^M/);
    // The dots rise with the values: SVG y grows downwards.
    const ys = [...container.querySelectorAll('.recharts-line-dot')].map((d) => Number(d.getAttribute('cy')));
    expect(ys[0]).toBeGreaterThan(ys[1]);
    expect(ys[1]).toBeGreaterThan(ys[2]);
  });

  it('says so when there is no check-in to draw', () => {
    render(<KpiTrend kpi={makeKpi({ trend: [], last_checkin_date: null, stale: true })} />);
    expect(screen.getByText('No check-ins yet.')).toBeInTheDocument();
    expect(screen.queryByRole('figure')).not.toBeInTheDocument();
  });

  it('marks a stale KPI, and only a stale one', () => {
    const { rerender } = render(<KpiStaleMark kpi={makeKpi({ stale: true })} />);
    expect(screen.getByText('Stale')).toHaveAttribute('title', 'No check-in for 14 days');
    rerender(<KpiStaleMark kpi={makeKpi()} />);
    expect(screen.queryByText('Stale')).not.toBeInTheDocument();
  });
});
