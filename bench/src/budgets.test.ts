import { describe, expect, it } from 'vitest';
import {
  alarm,
  budgetMarkdown,
  budgetSummary,
  budgetsFromNotes,
  budgetTable,
  cpuBudget,
  layerCheck,
  layerMarkdown,
  rpsBudget,
} from './budgets.ts';
import { pairResult, type RunFigures } from './interleave.ts';

const run = (cpu: number, rps: number, over: Partial<RunFigures> = {}): RunFigures => ({
  req_per_sec: rps,
  p50_ms: 2,
  p99_ms: 10,
  requests: rps * 5,
  bad: 0,
  cpu_ms_per_req: cpu,
  ...over,
});

/** Product and floor over three rounds, the product costing `ratio`× the floor's CPU in each. */
const pair = (ratio: number, over: Partial<RunFigures> = {}) =>
  pairResult(
    [run(ratio, 1000 / ratio, over), run(ratio * 2, 500 / ratio, over), run(ratio, 1000 / ratio, over)],
    [run(1, 1000), run(2, 500), run(1, 1000)],
  );

describe('floor budgets', () => {
  it('pass when the median per-round CPU ratio is within the budget, with the other ratios beside it', () => {
    const ok = cpuBudget('lists', 'GET tasks', 'list floor', pair(1.15), 1.2);
    expect(ok).toMatchObject({ pass: true, budget: 'CPU/req ≤ 1.2× the list floor' });
    expect(ok.figure).toMatch(/^CPU 1\.15× \(req\/s 0\.87×, p99 1\.00×; CPU\/req 1\.15 vs 1 ms/);
    expect(cpuBudget('lists', 'GET tasks', 'list floor', pair(1.25), 1.2).pass).toBe(false);
    expect(cpuBudget('lists', 'GET tasks', 'list floor', pair(1.25), 1.3).pass).toBe(true);
  });

  it('fail a pair with any non-2xx or error, whatever its ratio', () => {
    const bad = cpuBudget('lists', 'GET tasks', 'list floor', pair(1, { bad: 3 }), 1.2);
    expect(bad.pass).toBe(false);
    expect(bad.figure).toMatch(/^not valid/);
  });

  it('a throughput budget holds the req/s ratio to its minimum', () => {
    expect(rpsBudget('lists', 'me', 'auth floor', pair(1.6), 0.6)).toMatchObject({
      pass: true,
      budget: 'req/s ≥ 0.6× the auth floor',
    });
    expect(rpsBudget('lists', 'me', 'auth floor', pair(1.7), 0.6).pass).toBe(false);
  });

  it('an absolute figure is an alarm only past twice the floor', () => {
    expect(alarm('tasks', 'p99 ms', 20, 10)).toBeNull();
    expect(alarm('tasks', 'p99 ms', 21, 10)).toBe("ALARM tasks: p99 ms 21 is over twice the floor's 10");
  });
});

describe('speed layers', () => {
  it('a layer pays for itself when off costs ≥ 1.5× the CPU of on (or on serves ≥ 1.5× the req/s)', () => {
    // Measured as "on" against "off": on costs 0.5× → off costs 2× of on.
    expect(layerCheck('read cache', 'READ_CACHE_MB=0', 'list hit', pair(0.5))).toMatchObject({
      off_over_on: 2,
      measure: 'CPU/req',
      pays: true,
    });
    expect(layerCheck('read worker', 'SQLITE_READ_WORKER=false', 'list miss', pair(0.8)).pays).toBe(false);
  });

  it('prints one markdown row per layer with its verdict', () => {
    const lines = layerMarkdown([
      { ...layerCheck('read cache', 'READ_CACHE_MB=0', 'list hit', pair(0.5)), engine: 'sqlite' },
    ]).split('\n');
    expect(lines[0]).toBe('| engine | layer | switch | row | off/on | req/s on/off | ≥ 1.5× |');
    expect(lines[2]).toBe(
      '| sqlite | read cache | READ_CACHE_MB=0 | list hit | 2.00× CPU/req | 2.00× | yes |',
    );
  });
});

describe('the budget table', () => {
  const checks = [
    {
      ...cpuBudget('workspace-lists', 'GET tasks | first page', 'list floor', pair(1.1), 1.2),
      engine: 'sqlite' as const,
    },
    {
      ...cpuBudget('workspace-lists', 'GET /api/tasks/?limit=50', 'list floor', pair(1.5), 1.3),
      engine: 'postgres' as const,
    },
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
    expect(lines[2]).toMatch(
      /^\| sqlite \| workspace-lists \| GET tasks \\\| first page \| CPU\/req ≤ 1\.2× the list floor \| CPU 1\.10× .* \| pass \|$/,
    );
    expect(lines[3]).toContain('| postgres | workspace-lists | GET /api/tasks/?limit=50 |');
    expect(lines[3]).toMatch(/\| FAIL \|$/);
    expect(lines[4]).toBe('| any | bundle-size | / initial JS | ≤ 170.0 kB | 120.0 kB | pass |');
  });

  it('for the terminal: the same rows in aligned columns, and a summary', () => {
    const lines = budgetTable(checks).split('\n');
    expect(lines).toHaveLength(5);
    expect(lines[0].indexOf('budget')).toBe(lines[2].indexOf('CPU/req ≤'));
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
