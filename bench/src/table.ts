import type { HttpResult } from './http.ts';
import type { BundleResult } from './scenarios/types.ts';

function table(head: string[], rows: string[][], right: number[]): string {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const fmt = (cells: string[]) =>
    cells.map((c, i) => (right.includes(i) ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join('  ');
  return [fmt(head), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(fmt)].join('\n');
}

export function httpTable(results: (HttpResult & { engine?: string })[]): string {
  return table(
    ['engine', 'route', 'conn', 'req/s', 'p50 ms', 'p99 ms', 'vs control', 'non-2xx', 'cpu steal'],
    results.map((r) => [
      r.engine ?? '',
      `${r.method} ${r.path}`,
      String(r.connections),
      r.req_per_sec.toLocaleString('en-US'),
      String(r.p50_ms),
      String(r.p99_ms),
      r.ratio_to_control === null ? 'control' : `${(r.ratio_to_control * 100).toFixed(1)} %`,
      String(r.non2xx + r.errors),
      r.steal_pct === null ? '-' : `${r.steal_pct} %`,
    ]),
    [2, 3, 4, 5, 6, 7, 8],
  );
}

const kb = (n: number) => `${(n / 1000).toFixed(1)} kB`;

export function bundleTable(results: BundleResult[]): string {
  return table(
    ['page', 'method', 'files', 'gzip JS', 'budget', 'ok'],
    results.map((b) => [
      b.page,
      b.method,
      String(b.files.length),
      kb(b.total_gzip_bytes),
      kb(b.budget_gzip_bytes),
      b.within_budget ? 'yes' : 'NO',
    ]),
    [2, 3, 4],
  );
}
