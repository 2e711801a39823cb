import { describe, expect, it } from 'vitest';
import {
  budgetMarkdown,
  budgetSummary,
  budgetsFromNotes,
  budgetTable,
  httpBudget,
  LIST_BUDGETS,
} from './budgets.ts';
import type { HttpResult } from './http.ts';

function result(over: Partial<HttpResult>): HttpResult {
  return {
    group: 'workspace-lists',
    name: 'tasks',
    method: 'GET',
    path: '/api/tasks/?limit=50',
    connections: 32,
    duration_s: 10,
    req_per_sec: 3000,
    p50_ms: 5,
    p99_ms: 20,
    requests: 30_000,
    non2xx: 0,
    errors: 0,
    timeouts: 0,
    steal_pct: null,
    ratio_to_control: 0.2,
    probe_status: 200,
    runs: [],
    ...over,
  };
}

describe('list budgets', () => {
  it('are the figures of ARCHITECTURE.md section 8 per engine', () => {
    expect(LIST_BUDGETS.sqlite).toEqual({ minRatio: 0.15, maxP99: 25 });
    expect(LIST_BUDGETS.postgres).toEqual({ minRatio: 0.1, maxP99: 40 });
  });

  it('pass only when both the share of control and p99 are within the budget', () => {
    const b = LIST_BUDGETS.sqlite;
    expect(httpBudget(result({}), b)).toMatchObject({
      pass: true,
      budget: '≥ 15 % of control, p99 ≤ 25 ms',
      figure: '20.0 %, p99 20 ms',
    });
    expect(httpBudget(result({ ratio_to_control: 0.149 }), b).pass).toBe(false);
    expect(httpBudget(result({ p99_ms: 26 }), b).pass).toBe(false);
    expect(httpBudget(result({ p99_ms: 26 }), LIST_BUDGETS.postgres).pass).toBe(true);
  });

  it('fail a run with errors or no answer, whatever its latency says', () => {
    const b = LIST_BUDGETS.sqlite;
    expect(httpBudget(result({ non2xx: 3 }), b)).toMatchObject({
      pass: false,
      figure: '3 non-2xx, 0 errors: not valid',
    });
    expect(httpBudget(result({ requests: 0, p99_ms: 0 }), b)).toMatchObject({
      pass: false,
      figure: 'no answer within the 10 s run',
    });
  });
});

describe('the budget table', () => {
  const checks = [
    { ...httpBudget(result({}), LIST_BUDGETS.sqlite, 'GET tasks | first page'), engine: 'sqlite' as const },
    { ...httpBudget(result({ p99_ms: 90 }), LIST_BUDGETS.postgres), engine: 'postgres' as const },
    {
      group: 'bundle-size',
      name: '/ initial JS',
      budget: '≤ 170.0 kB',
      figure: '120.0 kB',
      pass: true,
      engine: null,
    },
  ];

  it('as markdown: one row per budget with engine, figure and verdict, pipes escaped', () => {
    const lines = budgetMarkdown(checks).split('\n');
    expect(lines[0]).toBe('| engine | group | measured | budget | figure | verdict |');
    expect(lines[1]).toBe('|---|---|---|---|---|---|');
    expect(lines[2]).toBe(
      '| sqlite | workspace-lists | GET tasks \\| first page | ≥ 15 % of control, p99 ≤ 25 ms | 20.0 %, p99 20 ms | pass |',
    );
    expect(lines[3]).toContain('| postgres | workspace-lists | GET /api/tasks/?limit=50 |');
    expect(lines[3]).toMatch(/\| FAIL \|$/);
    expect(lines[4]).toBe('| any | bundle-size | / initial JS | ≤ 170.0 kB | 120.0 kB | pass |');
  });

  it('for the terminal: the same rows in aligned columns, and a summary', () => {
    const lines = budgetTable(checks).split('\n');
    expect(lines).toHaveLength(5);
    expect(lines[0].indexOf('budget')).toBe(lines[2].indexOf('≥ 15 %'));
    expect(lines[3].endsWith('FAIL')).toBe(true);
    expect(budgetSummary(checks)).toBe('2 of 3 budgets pass (1 FAIL)');
  });
});

describe('budgets from notes', () => {
  it('turns each verdict of a note into a row, in both ways the groups write them', () => {
    const rows = budgetsFromNotes('chat', [
      'long conversation: latest page 29813 bytes (budget 65536): PASS; p99 423 ms (budget 20): FAIL',
      '1,000 clients following 50 runs: delivery p99 62 ms (budget 50 ms: FAIL); 3 events missing',
      '2000 streams opened: 14.0 KiB per stream (budget 32 KiB: within); delivery p99 2333 ms (budget 50 ms: OVER)',
      'seeded in 4 s',
    ]);
    expect(rows).toEqual([
      {
        group: 'chat',
        name: 'long conversation',
        budget: '65536',
        figure: 'latest page 29813 bytes',
        pass: true,
      },
      { group: 'chat', name: 'long conversation', budget: '20', figure: 'p99 423 ms', pass: false },
      {
        group: 'chat',
        name: '1,000 clients following 50 runs',
        budget: '50 ms',
        figure: 'delivery p99 62 ms',
        pass: false,
      },
      {
        group: 'chat',
        name: '2000 streams opened',
        budget: '32 KiB',
        figure: '14.0 KiB per stream',
        pass: true,
      },
      {
        group: 'chat',
        name: '2000 streams opened',
        budget: '50 ms',
        figure: 'delivery p99 2333 ms',
        pass: false,
      },
    ]);
  });
});
