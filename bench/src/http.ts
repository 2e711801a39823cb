import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import type { BenchSettings } from './config.ts';

export interface HttpTarget {
  /** Short label for the table. */
  name: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** Connections for this route (default: settings.connections). */
  connections?: number;
  /** Why this route is measured differently, printed with the results. */
  note?: string;
  /**
   * Header sets the requests take in turn (one per request, across all connections), added to
   * `headers`: e.g. the tokens of many users, so no two neighbouring requests are the same user's.
   */
  rotate?: Record<string, string>[];
}

export interface RunFigures {
  req_per_sec: number;
  p50_ms: number;
  p99_ms: number;
  requests: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  /** Share of CPU time the hypervisor gave to other guests during the run (Linux /proc/stat), in %. */
  steal_pct: number | null;
}

export interface HttpResult extends RunFigures {
  group: string;
  name: string;
  method: string;
  path: string;
  connections: number;
  duration_s: number;
  /** req/s of this route divided by req/s of the engine's control route measured at start (printed only). */
  ratio_to_control: number | null;
  /** Status of one probe request before the load, so a 401/404 benchmark is never mistaken for data. */
  probe_status: number;
  runs: RunFigures[];
  note?: string;
}

function once(baseURL: string, t: HttpTarget, connections: number, duration: number) {
  const rotate = t.rotate?.length ? t.rotate : null;
  let next = 0;
  return autocannon({
    url: baseURL + t.path,
    method: t.method,
    headers: t.headers,
    body: t.body,
    connections,
    duration,
    pipelining: 1,
    ...(rotate
      ? {
          requests: [
            {
              setupRequest: (req: autocannon.Request) => {
                const extra = rotate[next++ % rotate.length];
                return { ...req, headers: { ...req.headers, ...extra } };
              },
            },
          ],
        }
      : {}),
  });
}

/** The machine's CPU counters (Linux): total and stolen jiffies, or null elsewhere. */
function cpuTicks(): { total: number; steal: number } | null {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n')[0];
    const v = line.trim().split(/\s+/).slice(1, 9).map(Number);
    return { total: v.reduce((a, b) => a + b, 0), steal: v[7] ?? 0 };
  } catch {
    return null;
  }
}

/** Steal time between two readings, in % of all CPU time: how much of the machine was not ours. */
function stealBetween(a: ReturnType<typeof cpuTicks>, b: ReturnType<typeof cpuTicks>): number | null {
  if (!a || !b || b.total <= a.total) return null;
  return Math.round((1000 * (b.steal - a.steal)) / (b.total - a.total)) / 10;
}

function figures(r: autocannon.Result, steal: number | null): RunFigures {
  return {
    req_per_sec: Math.round(r.requests.average),
    p50_ms: r.latency.p50,
    p99_ms: r.latency.p99,
    requests: r.requests.total,
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
    steal_pct: steal,
  };
}

/** The median run by req/s (for an even count, the lower middle one: a real run, not an average). */
export function medianRun(runs: RunFigures[]): RunFigures {
  const sorted = [...runs].sort((a, b) => a.req_per_sec - b.req_per_sec);
  return sorted[Math.floor((sorted.length - 1) / 2)];
}

/**
 * Warm-up, then `settings.runs` measured runs of `settings.duration` seconds; reports the median,
 * with its req/s beside the control route's (printed only: budgets are ratios to floors, interleave.ts).
 */
export async function measure(
  baseURL: string,
  group: string,
  t: HttpTarget,
  settings: BenchSettings,
  control: HttpResult | null,
): Promise<HttpResult> {
  const connections = t.connections ?? settings.connections;
  const probe = await fetch(baseURL + t.path, {
    method: t.method,
    headers: { ...t.headers, ...t.rotate?.[0] },
    body: t.body,
  });
  await probe.arrayBuffer();
  if (probe.status >= 300) {
    console.warn(
      `  ! ${t.method} ${t.path} answered ${probe.status} before the load: its figures are not valid`,
    );
  }
  if (settings.warmup > 0) await once(baseURL, t, connections, settings.warmup);
  const runs: RunFigures[] = [];
  for (let i = 0; i < settings.runs; i++) {
    const before = cpuTicks();
    const r = await once(baseURL, t, connections, settings.duration);
    runs.push(figures(r, stealBetween(before, cpuTicks())));
  }
  const median = medianRun(runs);
  const ratio = control && control.req_per_sec > 0 ? median.req_per_sec / control.req_per_sec : null;
  const result: HttpResult = {
    group,
    name: t.name,
    method: t.method,
    path: t.path,
    connections,
    duration_s: settings.duration,
    ...median,
    ratio_to_control: ratio === null ? null : Math.round(ratio * 1000) / 1000,
    probe_status: probe.status,
    runs,
    note: t.note,
  };
  const bad = median.non2xx + median.errors;
  console.log(
    `  ${t.method.padEnd(4)} ${t.path.padEnd(22)} ${String(median.req_per_sec).padStart(7)} req/s  p99 ${median.p99_ms} ms` +
      (bad ? `  (${median.non2xx} non-2xx, ${median.errors} errors)` : ''),
  );
  return result;
}

/**
 * Waits until the server has worked off the requests autocannon left in flight when its run ended
 * (a slow route leaves up to `connections` of them), so they do not land in the next route's figures:
 * GET /healthz must answer in under 20 ms three times in a row (at most 120 s).
 */
export async function drain(baseURL: string): Promise<void> {
  const deadline = Date.now() + 120_000;
  let fast = 0;
  while (fast < 3 && Date.now() < deadline) {
    const t = performance.now();
    await (await fetch(`${baseURL}/healthz`)).arrayBuffer();
    fast = performance.now() - t < 20 ? fast + 1 : 0;
    if (fast < 3) await new Promise((r) => setTimeout(r, 50));
  }
}
