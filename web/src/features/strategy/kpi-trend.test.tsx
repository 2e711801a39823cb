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
    await waitFor(() => expect(container.querySelectorAll('.kpi-trend-dot')).toHaveLength(3));
    const line = container.querySelector('.kpi-trend-line');
    expect(line?.getAttribute('d')).toMatch(/^M/);
    // The dots rise with the values: SVG y grows downwards.
    const ys = [...container.querySelectorAll('.kpi-trend-dot')].map((d) => Number(d.getAttribute('cy')));
    expect(ys[0]).toBeGreaterThan(ys[1]);
    expect(ys[1]).toBeGreaterThan(ys[2]);
    // The target (100) is the dashed line above them all; each dot names its date and value.
    const target = Number(container.querySelector('.kpi-trend-target')?.getAttribute('y1'));
    expect(target).toBeLessThan(ys[2]);
    expect([...container.querySelectorAll('.kpi-trend-dot title')].map((t) => t.textContent)).toEqual([
      '2026-11-01: 10 k€',
      '2026-11-08: 25 k€',
      '2026-11-20: 40 k€',
    ]);
  });

  it('draws a single check-in and a KPI without a target', async () => {
    const { container } = render(
      <KpiTrend kpi={makeKpi({ target_value: null, trend: [{ date: '2026-11-20', value: 40 }] })} />,
    );
    await waitFor(() => expect(container.querySelectorAll('.kpi-trend-dot')).toHaveLength(1));
    expect(container.querySelector('.kpi-trend-target')).toBeNull();
    const dot = container.querySelector('.kpi-trend-dot');
    expect(Number(dot?.getAttribute('cx'))).toBe(110);
    expect(Number(dot?.getAttribute('cy'))).toBe(28);
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
