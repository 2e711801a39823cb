import { describe, expect, it } from 'vitest';
import { isKpiStale, KPI_STALE_DAYS, kpiStaleFrom } from './kpi-checkins.ts';

describe('kpiStaleFrom', () => {
  it('is the first day isKpiStale holds, across month and leap-day boundaries', () => {
    for (const last of ['2026-11-10', '2026-12-25', '2028-02-20', '2026-03-20']) {
      const from = kpiStaleFrom(last) as string;
      const dayBefore = new Date(Date.parse(`${from}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
      expect(isKpiStale(last, from)).toBe(true);
      expect(isKpiStale(last, dayBefore)).toBe(false);
    }
    expect(kpiStaleFrom('2026-11-10')).toBe('2026-11-24');
    expect(KPI_STALE_DAYS).toBe(14);
  });

  it('is null without a check-in (stale every day)', () => {
    expect(kpiStaleFrom(null)).toBeNull();
    expect(isKpiStale(null, '2026-11-28')).toBe(true);
  });
});
