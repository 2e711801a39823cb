import type { TKpi } from '@cc/contract';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { formatDay } from '../../lib/format';
import { makeKpi } from '../../test/fixtures';
import { KpiStaleMark, KpiTrend } from './components/kpi-trend';

function kpiWith(over: Partial<TKpi> = {}): TKpi {
  return makeKpi({
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
    forecast: { value_at_due: 90, on_track: false },
    ...over,
  });
}
const DUE = '2026-12-31';
const num = (el: Element | null, attr: string) => Number(el?.getAttribute(attr));

describe('KPI trend', () => {
  it('draws one point per check-in on a time axis, the target line and the forecast dashed to the due date', async () => {
    const { container } = render(<KpiTrend kpi={kpiWith()} dueDate={DUE} />);
    const figure = screen.getByRole('figure', { name: 'Trend of ARR' });
    expect(figure).toHaveAttribute('data-points', '3');
    await waitFor(() => expect(container.querySelectorAll('.kpi-trend-dot')).toHaveLength(3));
    expect(container.querySelector('.kpi-trend-line')?.getAttribute('d')).toMatch(/^M/);
    const dots = [...container.querySelectorAll('.kpi-trend-dot')];
    // The points rise with the values (SVG y grows downwards) and sit by date: 7 days, then 12.
    const ys = dots.map((d) => num(d, 'cy'));
    expect(ys[0]).toBeGreaterThan(ys[1]);
    expect(ys[1]).toBeGreaterThan(ys[2]);
    const xs = dots.map((d) => num(d, 'cx'));
    expect((xs[2] - xs[1]) / (xs[1] - xs[0])).toBeCloseTo(12 / 7, 5);
    // The target (100) is a solid line above them all, labelled.
    const target = container.querySelector('.kpi-trend-target');
    expect(num(target, 'y1')).toBeLessThan(ys[2]);
    expect(target?.getAttribute('stroke-dasharray')).toBeNull();
    expect(container.textContent).toContain('Target 100 k€');
    // The forecast is dashed, from the latest check-in to the due date at its value (90).
    const forecast = container.querySelector('.kpi-trend-forecast');
    expect(forecast?.getAttribute('stroke-dasharray')).toBeTruthy();
    expect([num(forecast, 'x1'), num(forecast, 'y1')]).toEqual([xs[2], ys[2]]);
    expect(num(forecast, 'x2')).toBeGreaterThan(xs[2]);
    expect(num(forecast, 'y2')).toBeLessThan(ys[2]);
    expect(num(forecast, 'y2')).toBeGreaterThan(num(target, 'y1'));
    // Dates on the axis, as the app writes them.
    expect(container.querySelector('.kpi-trend-axis-start')?.textContent).toBe(formatDay('2026-11-01'));
    expect(container.querySelector('.kpi-trend-axis-end')?.textContent).toBe(`Due ${formatDay(DUE)}`);
  });

  it('keeps the check-ins readable when the due date is years away: the axis breaks after them', async () => {
    const { container } = render(<KpiTrend kpi={kpiWith()} dueDate="2031-06-30" />);
    await waitFor(() => expect(container.querySelectorAll('.kpi-trend-dot')).toHaveLength(3));
    const xs = [...container.querySelectorAll('.kpi-trend-dot')].map((d) => num(d, 'cx'));
    const forecast = container.querySelector('.kpi-trend-forecast');
    // 19 days of check-ins take 60 % of the plot (44 → 306), not 1 %; the dashed line runs on to the end.
    expect(xs[2] - xs[0]).toBeCloseTo(0.6 * (320 - 44 - 14), 5);
    expect(num(forecast, 'x2')).toBe(320 - 14);
    expect(container.querySelector('.kpi-trend-axis-break')).not.toBeNull();
    // Close enough to the due date, the axis is one straight scale.
    const { container: near } = render(<KpiTrend kpi={kpiWith()} dueDate="2026-11-30" />);
    await waitFor(() => expect(near.querySelectorAll('.kpi-trend-dot')).toHaveLength(3));
    expect(near.querySelector('.kpi-trend-axis-break')).toBeNull();
  });

  it('shows a point’s date and value on hover and on focus', async () => {
    const { container } = render(<KpiTrend kpi={kpiWith()} dueDate={DUE} />);
    const point = await screen.findByLabelText(`${formatDay('2026-11-08')}: 25 k€`);
    expect(container.querySelector('.kpi-trend-tooltip')).toBeNull();
    fireEvent.mouseEnter(point);
    expect(container.querySelector('.kpi-trend-tooltip')?.textContent).toBe(
      `${formatDay('2026-11-08')}: 25 k€`,
    );
    fireEvent.mouseLeave(point);
    expect(container.querySelector('.kpi-trend-tooltip')).toBeNull();
    const last = screen.getByLabelText(`${formatDay('2026-11-20')}: 40 k€`);
    act(() => last.focus());
    expect(last).toHaveFocus();
    expect(container.querySelector('.kpi-trend-tooltip')?.textContent).toBe(
      `${formatDay('2026-11-20')}: 40 k€`,
    );
  });

  it('shows a single check-in as a labelled point, with no line and no forecast', async () => {
    const { container } = render(
      <KpiTrend
        kpi={kpiWith({ trend: [{ date: '2026-11-20', value: 40 }], forecast: null })}
        dueDate={DUE}
      />,
    );
    await waitFor(() => expect(container.querySelectorAll('.kpi-trend-dot')).toHaveLength(1));
    expect(container.querySelector('.kpi-trend-point-label')?.textContent).toBe(
      `40 k€ on ${formatDay('2026-11-20')}`,
    );
    expect(container.querySelector('.kpi-trend-line')).toBeNull();
    expect(container.querySelector('.kpi-trend-forecast')).toBeNull();
    expect(container.querySelector('[stroke-dasharray]')).toBeNull();
  });

  it('draws a KPI without a target: no target line', async () => {
    const { container } = render(
      <KpiTrend kpi={kpiWith({ target_value: null, forecast: null })} dueDate={DUE} />,
    );
    await waitFor(() => expect(container.querySelectorAll('.kpi-trend-dot')).toHaveLength(3));
    expect(container.querySelector('.kpi-trend-target')).toBeNull();
  });

  it('says so when there is no check-in to draw', () => {
    render(<KpiTrend kpi={kpiWith({ trend: [], last_checkin_date: null, stale: true })} dueDate={DUE} />);
    expect(screen.getByText('No check-ins yet.')).toBeInTheDocument();
    expect(screen.queryByRole('figure')).not.toBeInTheDocument();
  });

  it('marks a stale KPI, and only a stale one', () => {
    const { rerender } = render(<KpiStaleMark kpi={kpiWith({ stale: true })} />);
    expect(screen.getByText('Stale')).toHaveAttribute('title', 'No check-in for 14 days');
    rerender(<KpiStaleMark kpi={kpiWith()} />);
    expect(screen.queryByText('Stale')).not.toBeInTheDocument();
  });
});
