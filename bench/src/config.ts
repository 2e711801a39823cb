import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const BENCH_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const REPO_ROOT = path.resolve(BENCH_DIR, '..');
export const RESULTS_FILE = path.join(BENCH_DIR, 'results', 'latest.json');
/** The budget table of the same run, ready to paste into a markdown note. */
export const RESULTS_MD_FILE = path.join(BENCH_DIR, 'results', 'latest.md');
export const DEMO_PASSWORD = 'demo-password-1';

/** The database engines the bench runs every engine-specific group on. */
export type Engine = 'sqlite' | 'postgres';
export const ENGINES: readonly Engine[] = ['sqlite', 'postgres'];

function num(name: string, def: number, min = 0): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return def;
  const v = Number(raw);
  if (!Number.isFinite(v) || v < min) throw new Error(`${name} must be a number >= ${min} (got "${raw}")`);
  return v;
}

/**
 * Load settings (ARCHITECTURE.md section 8: autocannon -c 32, 10 s after a warm-up, median of 3).
 * Override for a quick check, e.g. `BENCH_DURATION=2 BENCH_RUNS=1 npm run bench -w bench`.
 */
export interface BenchSettings {
  /** Seconds per measured run. */
  duration: number;
  /** Measured runs per route; the median run (by req/s) is reported. */
  runs: number;
  /** Seconds of unmeasured load before the runs. */
  warmup: number;
  /** Rounds of a product/floor pair, product and floor in turn (BENCH_ROUNDS, ≥ 5 for a verdict). */
  rounds: number;
  /**
   * How many times a latency group repeats its measured burst or fan-out (BENCH_LATENCY_REPEATS, 3):
   * the median repeat is reported against the budget, as the median of the HTTP runs is.
   */
  latencyRepeats: number;
  /** Connections for ordinary routes. */
  connections: number;
  /** Connections for POST /api/auth/token (argon2id is deliberately slow and CPU-bound). */
  authConnections: number;
  /** Only run the scenario groups whose name contains one of these (BENCH_ONLY=http,bundle). */
  only: string[];
  /** The database engines, in order (BENCH_ENGINES=sqlite,postgres, the default; or one of them). */
  engines: Engine[];
}

/** BENCH_ENGINES: a comma-separated list of engines (blank: all of them, SQLite first). */
export function parseEngines(value: string | undefined): Engine[] {
  const raw = (value ?? '')
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  if (!raw.length) return [...ENGINES];
  const wrong = raw.filter((e) => !ENGINES.includes(e as Engine));
  if (wrong.length)
    throw new Error(`BENCH_ENGINES: unknown engine(s) ${wrong.join(', ')} (use ${ENGINES.join(', ')})`);
  return ENGINES.filter((e) => raw.includes(e));
}

export function loadSettings(): BenchSettings {
  return {
    duration: num('BENCH_DURATION', 10, 1),
    runs: Math.round(num('BENCH_RUNS', 3, 1)),
    warmup: num('BENCH_WARMUP', 2, 0),
    rounds: Math.round(num('BENCH_ROUNDS', 5, 1)),
    latencyRepeats: Math.round(num('BENCH_LATENCY_REPEATS', 3, 1)),
    connections: Math.round(num('BENCH_CONNECTIONS', 32, 1)),
    authConnections: Math.round(num('BENCH_AUTH_CONNECTIONS', 8, 1)),
    only: (process.env.BENCH_ONLY ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    engines: parseEngines(process.env.BENCH_ENGINES),
  };
}
