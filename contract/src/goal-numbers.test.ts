import { describe, expect, it } from 'vitest';
import {
  expectedProgress,
  expectedProgressChangesOn,
  goalNumbers,
  goalRisk,
  kpiForecast,
  kpiProgress,
} from './goal-numbers.ts';

const TODAY = '2026-11-29';

describe('kpiProgress by direction', () => {
  it('higher_is_better (the default) is current / target capped at 100', () => {
    expect(kpiProgress({ current_value: 3, target_value: 5 })).toBe(60);
    expect(kpiProgress({ current_value: 3, target_value: 5, direction: 'higher_is_better' })).toBe(60);
    expect(kpiProgress({ current_value: 9, target_value: 5 })).toBe(100);
  });

  it('lower_is_better is 100 when current ≤ target, else target / current', () => {
    // "Monthly churn 3 % against a target below 5 %" is met.
    expect(kpiProgress({ current_value: 3, target_value: 5, direction: 'lower_is_better' })).toBe(100);
    expect(kpiProgress({ current_value: 5, target_value: 5, direction: 'lower_is_better' })).toBe(100);
    expect(kpiProgress({ current_value: 10, target_value: 5, direction: 'lower_is_better' })).toBe(50);
    expect(kpiProgress({ current_value: 3, target_value: 0, direction: 'lower_is_better' })).toBe(0);
    expect(kpiProgress({ current_value: 0, target_value: 0, direction: 'lower_is_better' })).toBe(100);
    expect(kpiProgress({ current_value: 3, target_value: null, direction: 'lower_is_better' })).toBe(0);
  });
});

describe('expectedProgress: the straight line from start to due date', () => {
  it('is 0 for a goal created today and due in three weeks (not 94 points behind)', () => {
    expect(expectedProgress(TODAY, '2026-12-20', TODAY)).toBe(0);
    const g = goalNumbers(
      {
        status: 'new',
        start_date: TODAY,
        due_date: '2026-12-20',
        kpis: [
          { name: 'Signed pilots', current_value: 0, target_value: 3, trend: [{ date: TODAY, value: 0 }] },
        ],
      },
      TODAY,
    );
    expect([g.progress, g.expected_progress, g.risk]).toEqual([0, 0, { at_risk: false, reasons: [] }]);
  });

  it('runs from 0 at the start to 100 on the due date, clamped outside', () => {
    expect(expectedProgress('2026-11-01', '2026-12-01', '2026-11-16')).toBe(50);
    expect(expectedProgress('2026-11-01', '2026-12-01', '2026-10-01')).toBe(0);
    expect(expectedProgress('2026-11-01', '2026-12-01', '2026-12-01')).toBe(100);
    expect(expectedProgress('2026-12-01', '2026-12-01', '2026-12-02')).toBe(100);
  });

  it('says the next day the rounded figure changes, or null once due', () => {
    expect(expectedProgressChangesOn('2026-11-01', '2026-12-01', '2026-11-16')).toBe('2026-11-17');
    // 1 000 days: 0.1 point a day, 0 → 1 on the fifth day after the start.
    expect(expectedProgressChangesOn(TODAY, '2029-08-25', TODAY)).toBe('2026-12-04');
    expect(expectedProgressChangesOn('2026-11-01', '2026-12-01', '2026-12-01')).toBeNull();
    // Before the start it stays 0 until the line begins.
    expect(expectedProgressChangesOn('2026-12-10', '2026-12-20', TODAY)).toBe('2026-12-11');
  });
});

describe('kpiForecast', () => {
  const trend = [
    { date: '2026-11-01', value: 10 },
    { date: '2026-11-11', value: 20 },
  ];
  it('is null with fewer than two check-ins', () => {
    expect(kpiForecast({ target_value: 10, trend: [] }, '2026-12-31')).toBeNull();
    expect(kpiForecast({ target_value: 10, trend: [trend[0]] }, '2026-12-31')).toBeNull();
  });

  it('extends the linear trend to the due date and compares it with the target by direction', () => {
    // +1 a day: 50 on 2026-12-11.
    expect(kpiForecast({ target_value: 40, trend }, '2026-12-11')).toEqual({
      value_at_due: 50,
      on_track: true,
    });
    expect(kpiForecast({ target_value: 60, trend }, '2026-12-11')).toEqual({
      value_at_due: 50,
      on_track: false,
    });
    expect(kpiForecast({ target_value: 60, direction: 'lower_is_better', trend }, '2026-12-11')).toEqual({
      value_at_due: 50,
      on_track: true,
    });
    // A least-squares line through noisy points.
    const noisy = [
      { date: '2026-11-01', value: 1 },
      { date: '2026-11-02', value: 3 },
      { date: '2026-11-03', value: 2 },
    ];
    expect(kpiForecast({ target_value: null, trend: noisy }, '2026-11-05')).toEqual({
      value_at_due: 3.5,
      on_track: true,
    });
  });
});

describe('goalRisk', () => {
  it('names each reason with its figures', () => {
    const risk = goalRisk(
      {
        status: 'in_progress',
        progress: 20,
        expected_progress: 60,
        kpis: [
          {
            name: 'ARR',
            unit: '$M',
            current_value: 2,
            target_value: 10,
            last_checkin_date: '2026-11-01',
            forecast: { value_at_due: 6.5, on_track: false },
          },
        ],
      },
      TODAY,
    );
    expect(risk).toEqual({
      at_risk: true,
      reasons: [
        '20% done, 60% expected by today',
        'KPI “ARR” is forecast at 6.5 $M by the due date, short of its target of 10 $M',
        'KPI “ARR” has had no check-in since 2026-11-01',
      ],
    });
  });

  it('churn 3 % against a target below 5 % (lower_is_better) is 100 % and on track', () => {
    const g = goalNumbers(
      {
        status: 'in_progress',
        start_date: '2026-01-01',
        due_date: '2026-12-31',
        kpis: [
          {
            name: 'Monthly churn',
            unit: '%',
            current_value: 3,
            target_value: 5,
            direction: 'lower_is_better',
            trend: [
              { date: '2026-11-01', value: 4 },
              { date: '2026-11-22', value: 3 },
            ],
          },
        ],
      },
      TODAY,
    );
    expect(g.progress).toBe(100);
    expect(g.kpis[0].forecast?.on_track).toBe(true);
    expect(g.risk).toEqual({ at_risk: false, reasons: [] });
  });

  it('leaves a goal within the tolerance, a goal without a measurable KPI and a settled goal alone', () => {
    const kpi = {
      name: 'NPS',
      current_value: 1,
      target_value: 10,
      last_checkin_date: TODAY,
      forecast: null,
    };
    expect(goalRisk({ status: 'new', progress: 41, expected_progress: 50, kpis: [kpi] }, TODAY).at_risk).toBe(
      false,
    );
    expect(
      goalRisk(
        { status: 'new', progress: 0, expected_progress: 90, kpis: [{ ...kpi, target_value: null }] },
        TODAY,
      ).at_risk,
    ).toBe(false);
    expect(
      goalRisk({ status: 'done', progress: 0, expected_progress: 100, kpis: [kpi] }, TODAY).at_risk,
    ).toBe(false);
  });

  it('names a KPI never checked in', () => {
    const risk = goalRisk(
      {
        status: 'new',
        progress: 0,
        expected_progress: 0,
        kpis: [{ name: 'NPS', current_value: 0, target_value: 10, last_checkin_date: null, forecast: null }],
      },
      TODAY,
    );
    expect(risk.reasons).toEqual(['KPI “NPS” was never checked in']);
  });
});
