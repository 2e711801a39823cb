import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import pg from 'pg';
import type { HttpTarget } from './http.ts';

/**
 * Product against floor (issue 48 §1): the two servers measured in turn, A B A B… for `rounds`
 * rounds, each run the same load (autocannon, same route, connections and duration). The verdict
 * rests on the median of the per-round ratios of CPU per request: on this shared machine req/s moves
 * up to 2.8× within a run, while the ratio of two neighbouring runs' CPU per request moves by ~0.1.
 */

/** Clock ticks per second of /proc's CPU times (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** utime + stime (fields 14 and 15) of a /proc/<pid>/stat line; the name in parentheses may hold spaces. */
export function statTicks(stat: string): number {
  const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // rest[0] is field 3 (state): utime is field 14, stime field 15.
  return Number(rest[11]) + Number(rest[12]);
}

/** CPU time a process has used so far, in ms (0 for one that is gone). */
export function processCpuMs(pid: number): number {
  try {
    return (statTicks(readFileSync(`/proc/${pid}/stat`, 'utf8')) * 1000) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

/** The median (for an even count, the mean of the middle two: a ratio, not a run, is reported). */
export function median(xs: readonly number[]): number {
  if (!xs.length) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
}

/** One side of a pair: a server process and the route measured on it. */
export interface Side {
  label: string;
  baseURL: string;
  pid: number;
  target: HttpTarget;
}

export interface RunFigures {
  req_per_sec: number;
  p50_ms: number;
  p99_ms: number;
  requests: number;
  /** Non-2xx answers plus errors: a run with any is not valid. */
  bad: number;
  /** CPU of the server process (and its PostgreSQL backends) per answered request, in ms. */
  cpu_ms_per_req: number;
}

export interface PairResult {
  product: RunFigures[];
  floor: RunFigures[];
  /** Medians of the per-round ratios product / floor. */
  cpu_ratio: number;
  rps_ratio: number;
  p99_ratio: number;
  /** Medians of each side's own figures, for the alarms and the table. */
  product_median: RunFigures;
  floor_median: RunFigures;
}

const mid = (runs: RunFigures[], key: keyof RunFigures) => median(runs.map((r) => r[key]));
const mediansOf = (runs: RunFigures[]): RunFigures => ({
  req_per_sec: Math.round(mid(runs, 'req_per_sec')),
  p50_ms: Math.round(mid(runs, 'p50_ms') * 10) / 10,
  p99_ms: Math.round(mid(runs, 'p99_ms') * 10) / 10,
  requests: mid(runs, 'requests'),
  bad: Math.max(0, ...runs.map((r) => r.bad)),
  cpu_ms_per_req: Math.round(mid(runs, 'cpu_ms_per_req') * 1000) / 1000,
});

/** The pair's ratios: each round's product figure over the floor's of the same round, then the median. */
export function pairResult(product: RunFigures[], floor: RunFigures[]): PairResult {
  const ratio = (key: keyof RunFigures) =>
    Math.round(median(product.map((p, i) => p[key] / (floor[i] as RunFigures)[key])) * 1000) / 1000;
  return {
    product,
    floor,
    cpu_ratio: ratio('cpu_ms_per_req'),
    rps_ratio: ratio('req_per_sec'),
    p99_ratio: ratio('p99_ms'),
    product_median: mediansOf(product),
    floor_median: mediansOf(floor),
  };
}

/**
 * The PostgreSQL backends whose CPU counts with a server's: every backend connected to the pass's
 * database except this bench's own. Product and floor share the database but never run at once, so
 * the idle side's backends add next to nothing to the other's figure.
 */
export class BackendCpu {
  private constructor(
    private readonly client: pg.Client,
    private readonly database: string,
  ) {}

  static async open(databaseUrl: string): Promise<BackendCpu | null> {
    if (databaseUrl.startsWith('file:')) return null;
    const client = new pg.Client({ connectionString: databaseUrl });
    client.on('error', () => {});
    await client.connect();
    return new BackendCpu(client, new URL(databaseUrl).pathname.slice(1));
  }

  async pids(): Promise<number[]> {
    const { rows } = await this.client.query<{ pid: number }>(
      'select pid from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
      [this.database],
    );
    return rows.map((r) => r.pid);
  }

  close = () => this.client.end();
}

/** One autocannon run of a side's route; `rotate` header sets are taken in turn, one per request. */
function load(side: Side, connections: number, duration: number) {
  const t = side.target;
  const rotate = t.rotate?.length ? t.rotate : null;
  let next = 0;
  return autocannon({
    url: side.baseURL + t.path,
    method: t.method,
    headers: t.headers,
    body: t.body,
    connections: t.connections ?? connections,
    duration,
    ...(rotate
      ? {
          requests: [
            {
              setupRequest: (req: autocannon.Request) => ({
                ...req,
                headers: { ...req.headers, ...rotate[next++ % rotate.length] },
              }),
            },
          ],
        }
      : {}),
  });
}

/** One measured run: the load, and the CPU the server (and its backends) spent meanwhile. */
export async function measuredRun(
  side: Side,
  connections: number,
  duration: number,
  backends: BackendCpu | null,
): Promise<RunFigures> {
  const before = new Map<number, number>();
  const pidsBefore = [side.pid, ...((await backends?.pids()) ?? [])];
  for (const pid of pidsBefore) before.set(pid, processCpuMs(pid));
  const r = await load(side, connections, duration);
  const pids = new Set([...pidsBefore, ...((await backends?.pids()) ?? [])]);
  let cpu = 0;
  for (const pid of pids) cpu += Math.max(0, processCpuMs(pid) - (before.get(pid) ?? 0));
  const answered = r.requests.total;
  return {
    req_per_sec: Math.round(r.requests.average),
    p50_ms: r.latency.p50,
    p99_ms: r.latency.p99,
    requests: answered,
    bad: r.non2xx + r.errors,
    cpu_ms_per_req: answered > 0 ? Math.round((cpu / answered) * 1000) / 1000 : Number.NaN,
  };
}

export interface InterleaveSettings {
  rounds: number;
  duration: number;
  warmup: number;
  connections: number;
}

/**
 * Product and floor in turn for `rounds` rounds (each preceded by an unmeasured warm-up of both),
 * on the same database; resolves with the per-round figures and the median ratios.
 */
export async function interleave(
  product: Side,
  floor: Side,
  s: InterleaveSettings,
  backends: BackendCpu | null,
): Promise<PairResult> {
  if (s.warmup > 0) {
    await load(product, s.connections, s.warmup);
    await load(floor, s.connections, s.warmup);
  }
  const p: RunFigures[] = [];
  const f: RunFigures[] = [];
  for (let i = 0; i < s.rounds; i++) {
    p.push(await measuredRun(product, s.connections, s.duration, backends));
    f.push(await measuredRun(floor, s.connections, s.duration, backends));
  }
  const result = pairResult(p, f);
  console.log(
    `  ${product.label}: CPU ${result.cpu_ratio}× the ${floor.label} ` +
      `(${result.product_median.cpu_ms_per_req} vs ${result.floor_median.cpu_ms_per_req} ms/req), ` +
      `req/s ${result.rps_ratio}×, p99 ${result.p99_ratio}×`,
  );
  return result;
}
