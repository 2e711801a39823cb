import Database from 'better-sqlite3';
import pg from 'pg';

/**
 * Times every statement run in this process (better-sqlite3's Statement#run and #all; pg's Client#query), by SQL, while
 * `on()` is true. For the probes only: it patches the driver's prototype.
 */
export function timeStatements(on: () => boolean = () => true) {
  const times = new Map<string, { n: number; ms: number }>();
  const proto = Object.getPrototypeOf(new Database(':memory:').prepare('select 1'));
  for (const method of ['run', 'all'] as const) {
    const original = proto[method];
    proto[method] = function (this: { source: string }, ...args: unknown[]) {
      if (!on()) return original.apply(this, args);
      const t = performance.now();
      try {
        return original.apply(this, args);
      } finally {
        const e = times.get(this.source) ?? { n: 0, ms: 0 };
        e.n++;
        e.ms += performance.now() - t;
        times.set(this.source, e);
      }
    };
  }
  // PostgreSQL: pg's Client#query (promise form, as Kysely calls it), timed until its rows arrive.
  const pgQuery = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const text = typeof args[0] === 'string' ? args[0] : (args[0] as { text?: string })?.text;
    const result = (pgQuery as (...a: unknown[]) => unknown).apply(this, args);
    if (!on() || !text || !(result instanceof Promise)) return result;
    const t = performance.now();
    const done = () => {
      const e = times.get(text) ?? { n: 0, ms: 0 };
      e.n++;
      e.ms += performance.now() - t;
      times.set(text, e);
    };
    result.then(done, done);
    return result;
  } as typeof pgQuery;
  /** The slowest statements in total, each as ms per `per` (e.g. per request) and its count. */
  const print = (per: number, unit: string) => {
    for (const [q, e] of [...times].sort((a, b) => b[1].ms - a[1].ms).slice(0, 12))
      console.log(
        `${(e.ms / per).toFixed(3).padStart(7)} ms/${unit} ${String(e.n).padStart(6)}x  ${q.slice(0, 120)}`,
      );
  };
  return { print };
}
