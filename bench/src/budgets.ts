import type { Engine } from './config.ts';
import type { HttpResult } from './http.ts';
import type { BundleResult, LighthouseResult } from './scenarios/types.ts';

/** One budget of the bench, its figure in this run and whether the figure is within it. */
export interface BudgetCheck {
  /** Filled in by run.ts: the engine of the pass, or null for groups measured once. */
  engine?: Engine | null;
  group: string;
  /** What is measured, e.g. `GET /api/tasks/ (200 users, cache off)`. */
  name: string;
  /** The budget in words, e.g. `≥ 15 % of control, p99 ≤ 25 ms`. */
  budget: string;
  /** The figure, in the budget's terms. */
  figure: string;
  pass: boolean;
}

/** A list budget: throughput as a share of the control route, and p99 latency. */
export interface ListBudget {
  minRatio: number;
  maxP99: number;
}

/**
 * The list budgets per engine. SQLite: ARCHITECTURE.md section 8 (≥ 15 % of control, p99 ≤ 25 ms);
 * the same for the realistic misses (issue #18). PostgreSQL (issue #18): ≥ 10 %, p99 ≤ 40 ms, for the
 * cached and the miss runs alike.
 */
export const LIST_BUDGETS: Record<Engine, ListBudget> = {
  sqlite: { minRatio: 0.15, maxP99: 25 },
  postgres: { minRatio: 0.1, maxP99: 40 },
};

const pctText = (ratio: number) => `${(ratio * 100).toFixed(1)} %`;

/** Checks an HTTP figure against a ratio + p99 budget (no answer within the run fails it). */
export function httpBudget(r: HttpResult, b: ListBudget, name = `${r.method} ${r.path}`): BudgetCheck {
  const answered = r.requests > 0 && r.non2xx === 0 && r.errors === 0;
  const ratio = r.ratio_to_control ?? 0;
  const pass = answered && ratio >= b.minRatio && r.p99_ms <= b.maxP99;
  const figure = !answered
    ? r.requests > 0
      ? `${r.non2xx} non-2xx, ${r.errors} errors: not valid`
      : `no answer within the ${r.duration_s} s run`
    : `${pctText(ratio)}, p99 ${r.p99_ms} ms`;
  return {
    group: r.group,
    name,
    budget: `≥ ${b.minRatio * 100} % of control, p99 ≤ ${b.maxP99} ms`,
    figure,
    pass,
  };
}

/** A latency-only budget (p-th percentile ≤ max ms). */
export function latencyBudget(
  group: string,
  name: string,
  label: string,
  figureMs: number,
  maxMs: number,
): BudgetCheck {
  const ok = Number.isFinite(figureMs) && figureMs <= maxMs;
  return { group, name, budget: `${label} ≤ ${maxMs} ms`, figure: `${label} ${figureMs} ms`, pass: ok };
}

const kb = (n: number) => `${(n / 1000).toFixed(1)} kB`;

export function bundleBudget(b: BundleResult, group = 'bundle-size'): BudgetCheck {
  return {
    group,
    name: `${b.page} initial JS (gzip, ${b.method})`,
    budget: `≤ ${kb(b.budget_gzip_bytes)}`,
    figure: kb(b.total_gzip_bytes),
    pass: b.within_budget,
  };
}

export function lighthouseBudget(
  l: LighthouseResult,
  goals: { performance: number; lcp_ms: number; tbt_ms: number; cls: number },
  group = 'lighthouse',
): BudgetCheck {
  return {
    group,
    name: `${l.page} (Lighthouse mobile, median of ${l.runs})`,
    budget: `score ≥ ${goals.performance}, LCP ≤ ${goals.lcp_ms} ms, TBT ≤ ${goals.tbt_ms} ms, CLS ≤ ${goals.cls}`,
    figure: `score ${l.performance}, LCP ${l.lcp_ms} ms, TBT ${l.tbt_ms} ms, CLS ${l.cls}`,
    pass: l.meets_goals,
  };
}

/** The table's rows: engine, group, what, budget, figure, verdict. */
function rows(checks: BudgetCheck[]): string[][] {
  return checks.map((c) => [
    c.engine ?? 'any',
    c.group,
    c.name,
    c.budget,
    c.figure,
    c.pass ? 'pass' : 'FAIL',
  ]);
}

const HEAD = ['engine', 'group', 'measured', 'budget', 'figure', 'verdict'];

/** The budget table for the terminal (aligned columns). */
export function budgetTable(checks: BudgetCheck[]): string {
  const body = rows(checks);
  const widths = HEAD.map((h, i) => Math.max(h.length, ...body.map((r) => r[i].length)));
  const fmt = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i]))
      .join('  ')
      .trimEnd();
  return [fmt(HEAD), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(fmt)].join('\n');
}

/** The same table as markdown (pipes in cells escaped), for the issue note. */
export function budgetMarkdown(checks: BudgetCheck[]): string {
  const cell = (s: string) => s.replace(/\|/g, '\\|');
  const line = (cells: string[]) => `| ${cells.map(cell).join(' | ')} |`;
  return [line(HEAD), `|${HEAD.map(() => '---').join('|')}|`, ...rows(checks).map(line)].join('\n');
}

/** "12 of 14 budgets pass" (and which engines were skipped, from the notes). */
export function budgetSummary(checks: BudgetCheck[]): string {
  const passed = checks.filter((c) => c.pass).length;
  return `${passed} of ${checks.length} budgets pass${passed < checks.length ? ` (${checks.length - passed} FAIL)` : ''}`;
}

/**
 * A verdict written into a note: `(budget 20): PASS`, `(budget p99 50 ms: FAIL)`, or the words some
 * groups use, `(budget 32 KiB: within)` and `(budget 50 ms: OVER)`.
 */
const NOTE_VERDICT = /\(budget ([^):]+?)\)?:\s*(PASS|FAIL|within|OVER)\)?/;
const PASSED = new Set(['PASS', 'within']);

/**
 * The budgets of a group that reports its verdicts only in its notes (one row per `(budget …): PASS`
 * or `FAIL` in them), so that the table still holds every budget. The row is named by the note's
 * head (the text before its first colon); its figure is the text before the verdict.
 */
export function budgetsFromNotes(group: string, notes: readonly string[]): BudgetCheck[] {
  const out: BudgetCheck[] = [];
  for (const note of notes) {
    const colon = note.indexOf(':');
    const head = colon > 0 ? note.slice(0, colon).trim() : note;
    for (const segment of note.split(/;\s+/)) {
      const m = NOTE_VERDICT.exec(segment);
      if (!m) continue;
      let figure = segment.slice(0, m.index).trim();
      if (figure.startsWith(`${head}:`)) figure = figure.slice(head.length + 1).trim();
      out.push({ group, name: head, budget: m[1].trim(), figure: figure || '-', pass: PASSED.has(m[2]) });
    }
  }
  return out;
}
