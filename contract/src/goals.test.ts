import { describe, expect, it } from 'vitest';
import {
  goalProgress,
  goalStatusLabel,
  kpiProgress,
  ZCreateGoalRequest,
  ZGoalListQuery,
  ZUpdateGoalRequest,
} from './goals.ts';

describe('kpiProgress', () => {
  it('is current / target in percent, capped at 100', () => {
    expect(kpiProgress({ current_value: 25, target_value: 100 })).toBe(25);
    expect(kpiProgress({ current_value: 1, target_value: 3 })).toBeCloseTo(33.333, 2);
    expect(kpiProgress({ current_value: 150, target_value: 100 })).toBe(100);
    expect(kpiProgress({ current_value: 100, target_value: 100 })).toBe(100);
  });

  it('counts 0 without a positive target', () => {
    expect(kpiProgress({ current_value: 50, target_value: null })).toBe(0);
    expect(kpiProgress({ current_value: 50, target_value: 0 })).toBe(0);
    expect(kpiProgress({ current_value: 50 })).toBe(0);
    expect(kpiProgress({ current_value: -5, target_value: -10 })).toBe(0);
    expect(kpiProgress({ current_value: 5, target_value: -10 })).toBe(0);
  });

  it('counts a negative or missing current value as 0 and ignores non-finite numbers', () => {
    expect(kpiProgress({ current_value: -20, target_value: 100 })).toBe(0);
    expect(kpiProgress({ current_value: null, target_value: 100 })).toBe(0);
    expect(kpiProgress({ target_value: 100 })).toBe(0);
    expect(kpiProgress({ current_value: Number.NaN, target_value: 100 })).toBe(0);
    expect(kpiProgress({ current_value: 10, target_value: Number.POSITIVE_INFINITY })).toBe(0);
  });
});

describe('goalProgress', () => {
  it('is 0 for a goal without KPIs', () => {
    expect(goalProgress([])).toBe(0);
    expect(goalProgress(null)).toBe(0);
    expect(goalProgress(undefined)).toBe(0);
  });

  it('averages the capped KPI progress and rounds', () => {
    expect(goalProgress([{ current_value: 50, target_value: 100 }])).toBe(50);
    // 100 (capped from 300) + 0 (no target) + 25 → 41.67 → 42
    expect(
      goalProgress([
        { current_value: 300, target_value: 100 },
        { current_value: 10, target_value: null },
        { current_value: 1, target_value: 4 },
      ]),
    ).toBe(42);
    // 1/3 → 33.33 → 33; 2/3 → 66.67 → 67
    expect(goalProgress([{ current_value: 1, target_value: 3 }])).toBe(33);
    expect(goalProgress([{ current_value: 2, target_value: 3 }])).toBe(67);
  });

  it('never exceeds 100 nor goes below 0', () => {
    expect(
      goalProgress([
        { current_value: 1000, target_value: 1 },
        { current_value: 500, target_value: 2 },
      ]),
    ).toBe(100);
    expect(
      goalProgress([
        { current_value: -100, target_value: 10 },
        { current_value: 0, target_value: 0 },
      ]),
    ).toBe(0);
  });
});

describe('goal schemas', () => {
  it('requires title and due date with the spec message', () => {
    const r = ZCreateGoalRequest.safeParse({ title: '  ', due_date: '' });
    expect(r.success).toBe(false);
    expect(r.error?.issues.map((i) => i.message)).toEqual([
      'Title and Due Date are required.',
      'Title and Due Date are required.',
    ]);
    expect(ZCreateGoalRequest.safeParse({ title: 'x' }).error?.issues[0].message).toBe(
      'Title and Due Date are required.',
    );
  });

  it('defaults status to new and kpis to [], and reads numbers typed in forms', () => {
    const g = ZCreateGoalRequest.parse({
      title: ' Grow ',
      due_date: '2026-12-31',
      kpis: [
        { name: 'ARR', current_value: '1.5', target_value: '3', unit: ' M$ ' },
        { name: 'NPS', target_value: '' },
      ],
    });
    expect(g).toMatchObject({ title: 'Grow', status: 'new', due_date: '2026-12-31' });
    expect(g.kpis).toEqual([
      { name: 'ARR', current_value: 1.5, target_value: 3, unit: 'M$', direction: 'higher_is_better' },
      { name: 'NPS', current_value: 0, target_value: null, direction: 'higher_is_better' },
    ]);
    expect(
      ZCreateGoalRequest.safeParse({
        title: 'a',
        due_date: '2026-01-01',
        kpis: [{ name: 'Churn', direction: 'sideways' }],
      }).error?.issues[0].message,
    ).toBe('Direction must be one of higher_is_better, lower_is_better');
    expect(ZCreateGoalRequest.parse({ title: 'a', due_date: '2026-01-01' }).kpis).toEqual([]);
  });

  it('refuses bad KPI values, blank KPI names and unknown statuses', () => {
    const bad = ZCreateGoalRequest.safeParse({
      title: 'a',
      due_date: '2026-01-01',
      kpis: [{ name: 'x', current_value: 'ten' }],
    });
    expect(bad.error?.issues[0].message).toBe('KPI values must be numbers');
    const noName = ZCreateGoalRequest.safeParse({
      title: 'a',
      due_date: '2026-01-01',
      kpis: [{ name: ' ' }],
    });
    expect(noName.error?.issues[0].message).toBe('KPI name is required.');
    expect(ZUpdateGoalRequest.safeParse({ title: 'a', due_date: '2026-01-01', status: 'won' }).success).toBe(
      false,
    );
  });

  it('parses list queries: include_completed is a real boolean, sort defaults to due_date', () => {
    expect(ZGoalListQuery.parse({})).toMatchObject({ sort_by: 'due_date', include_completed: false });
    expect(ZGoalListQuery.parse({ include_completed: 'false' }).include_completed).toBe(false);
    expect(ZGoalListQuery.parse({ include_completed: 'true' }).include_completed).toBe(true);
    expect(ZGoalListQuery.safeParse({ limit: '201' }).success).toBe(false);
  });

  it('labels statuses with spaces', () => {
    expect(goalStatusLabel('in_progress')).toBe('in progress');
  });
});
