import type { Engine } from './config.ts';
import type { PairResult } from './interleave.ts';
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

const x = (ratio: number) => `${Number.isFinite(ratio) ? ratio.toFixed(2) : '-'}×`;

/** Whether every run of a pair answered with 2xx only (else its figures are not valid). */
const validPair = (p: PairResult) =>
  [...p.product, ...p.floor].every((r) => r.requests > 0 && r.bad === 0) && Number.isFinite(p.cpu_ratio);

/** What a pair printed beside its verdict: the other ratios and both sides' own CPU per request. */
export const pairFigures = (p: PairResult) =>
  `req/s ${x(p.rps_ratio)}, p99 ${x(p.p99_ratio)}; CPU/req ${p.product_median.cpu_ms_per_req} vs ` +
  `${p.floor_median.cpu_ms_per_req} ms, p99 ${p.product_median.p99_ms} vs ${p.floor_median.p99_ms} ms, ` +
  `${p.product.length} rounds`;

/** A floor budget on CPU per request: the median of the per-round ratios ≤ `max`. */
export function cpuBudget(
  group: string,
  name: string,
  floor: string,
  p: PairResult,
  max: number,
): BudgetCheck {
  const valid = validPair(p);
  return {
    group,
    name,
    budget: `CPU/req ≤ ${max}× the ${floor}`,
    figure: valid
      ? `CPU ${x(p.cpu_ratio)} (${pairFigures(p)})`
      : `not valid: non-2xx or errors (${pairFigures(p)})`,
    pass: valid && p.cpu_ratio <= max,
  };
}

/** A floor budget on throughput: the median of the per-round req/s ratios ≥ `min`. */
export function rpsBudget(
  group: string,
  name: string,
  floor: string,
  p: PairResult,
  min: number,
): BudgetCheck {
  const valid = validPair(p);
  return {
    group,
    name,
    budget: `req/s ≥ ${min}× the ${floor}`,
    figure: valid
      ? `req/s ${x(p.rps_ratio)} (CPU ${x(p.cpu_ratio)}; ${pairFigures(p)})`
      : 'not valid: non-2xx or errors',
    pass: valid && p.rps_ratio >= min,
  };
}

/** A floor budget on a latency figure (first token, fan-out p99): product ≤ `max`× the floor's. */
export function latencyRatioBudget(
  group: string,
  name: string,
  floor: string,
  label: string,
  product: number,
  floorFigure: number,
  max: number,
): BudgetCheck {
  const ratio = product / floorFigure;
  const ok = Number.isFinite(ratio) && ratio <= max;
  return {
    group,
    name,
    budget: `${label} ≤ ${max}× the ${floor}'s`,
    figure: `${x(ratio)} (${product} vs ${floorFigure} ms)`,
    pass: ok,
  };
}

/**
 * The alarm of an absolute figure: printed (never a verdict) when the product's figure is more than
 * twice the floor's own in the same run.
 */
export function alarm(name: string, what: string, product: number, floor: number): string | null {
  return product > 2 * floor ? `ALARM ${name}: ${what} ${product} is over twice the floor's ${floor}` : null;
}

/**
 * One speed layer's on/off pair (issue 48 §2): the row it claims to speed up, measured with the layer
 * on and off in the same run; it pays for itself when off costs ≥ 1.5× what on costs (CPU per request,
 * or the row's latency for a latency row), or on serves ≥ 1.5× the req/s.
 */
export interface LayerCheck {
  engine?: string | null;
  layer: string;
  /** The switch, e.g. `READ_CACHE_MB=0`. */
  switch: string;
  row: string;
  /** What `off_over_on` compares: CPU per request, or a latency figure such as `p99`. */
  measure: string;
  /** The figure with the layer off over the figure with it on (median of the per-round ratios). */
  off_over_on: number;
  /** req/s on / off (null for a latency row). */
  rps_on_over_off: number | null;
  pays: boolean;
  note?: string;
}

/** The layer row of an interleaved pair measured with the layer on (product) and off (floor side). */
export function layerCheck(
  layer: string,
  sw: string,
  row: string,
  onVsOff: PairResult,
  note?: string,
): LayerCheck {
  const gain = Math.round((1 / onVsOff.cpu_ratio) * 100) / 100;
  const rps = onVsOff.rps_ratio;
  return {
    layer,
    switch: sw,
    row,
    measure: 'CPU/req',
    off_over_on: gain,
    rps_on_over_off: rps,
    pays: validPair(onVsOff) && (gain >= 1.5 || rps >= 1.5),
    ...(note ? { note } : {}),
  };
}

const LAYER_HEAD = ['engine', 'layer', 'switch', 'row', 'off/on', 'req/s on/off', '≥ 1.5×'];

function layerRows(layers: LayerCheck[]): string[][] {
  return layers.map((l) => [
    l.engine ?? 'any',
    l.layer,
    l.switch,
    l.row + (l.note ? ` (${l.note})` : ''),
    `${x(l.off_over_on)} ${l.measure}`,
    l.rps_on_over_off === null ? '-' : x(l.rps_on_over_off),
    l.pays ? 'yes' : 'no',
  ]);
}

/** The layers table for the terminal. */
export function layerTable(layers: LayerCheck[]): string {
  return aligned(LAYER_HEAD, layerRows(layers));
}

/** The layers table as markdown, for the issue note. */
export function layerMarkdown(layers: LayerCheck[]): string {
  return markdown(LAYER_HEAD, layerRows(layers));
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

function aligned(head: string[], body: string[][]): string {
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((r) => r[i].length)));
  const fmt = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i]))
      .join('  ')
      .trimEnd();
  return [fmt(head), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(fmt)].join('\n');
}

function markdown(head: string[], body: string[][]): string {
  const cell = (s: string) => s.replace(/\|/g, '\\|');
  const line = (cells: string[]) => `| ${cells.map(cell).join(' | ')} |`;
  return [line(head), `|${head.map(() => '---').join('|')}|`, ...body.map(line)].join('\n');
}

/** The budget table for the terminal (aligned columns). */
export function budgetTable(checks: BudgetCheck[]): string {
  return aligned(HEAD, rows(checks));
}

/** The same table as markdown (pipes in cells escaped), for the issue note. */
export function budgetMarkdown(checks: BudgetCheck[]): string {
  return markdown(HEAD, rows(checks));
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
