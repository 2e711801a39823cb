import { type Compilable, CompiledQuery } from 'kysely';
import type { Db } from './index.ts';
import { readWorkerOf } from './read-worker.ts';

/** Stands in for one parameter value while a query is built for its shape. */
class Slot {
  constructor(readonly path: string) {}
  // Using a value in JavaScript (a template string, a comparison with another value, a string method)
  // would bake the stand-in into the SQL: fail loudly instead; pass the derived value as a parameter.
  [Symbol.toPrimitive](): never {
    throw new Error(
      `preparedQuery: "${this.path}" was used in JavaScript while building; pass the derived value`,
    );
  }
}

type Params = Record<string, unknown>;

interface Entry {
  sql: string;
  /** Each compiled parameter: a stand-in's path, or a constant of the query text. */
  params: readonly unknown[];
}

/**
 * Stand-ins for the values, and the shape they build: strings and numbers become parameters; null and
 * undefined stay (they usually switch a filter off); booleans stay too (they usually switch SQL on
 * or off) and so are part of the shape, as is each array's length (an `in (…)` list).
 */
function standIns(p: Params): { values: Params; shape: string } {
  const values: Params = {};
  let shape = '';
  for (const [key, v] of Object.entries(p)) {
    if (v === undefined || v === null) {
      values[key] = v;
      shape += `${key}:-;`;
    } else if (typeof v === 'boolean') {
      values[key] = v;
      shape += `${key}:${v};`;
    } else if (Array.isArray(v)) {
      values[key] = v.map((_, i) => new Slot(`${key}.${i}`));
      shape += `${key}:[${v.length}];`;
    } else if (typeof v === 'string' || typeof v === 'number') {
      values[key] = new Slot(key);
      shape += `${key};`;
    } else {
      throw new Error(`preparedQuery: parameter "${key}" must be a string, number, boolean, array or null`);
    }
  }
  return { values, shape };
}

function valueAt(p: Params, path: string): unknown {
  const dot = path.indexOf('.');
  if (dot < 0) return p[path];
  return (p[path.slice(0, dot)] as unknown[])[Number(path.slice(dot + 1))];
}

/**
 * A query that is built and compiled by Kysely once per shape and dialect, then run with new values.
 * Building and compiling a query is a large share of the cost of a hot request (a list page builds a
 * union of several branches); the SQL of a given shape never changes, only its values.
 *
 * `build` receives stand-ins for string, number and array values: it may pass them to Kysely but not
 * inspect them (doing so throws, except for a comparison of two stand-ins, which is always unequal).
 * The shape is the presence of each value, the booleans and the array lengths: whatever else the SQL
 * depends on (e.g. whether two values are equal) is passed as a boolean. prepared-queries.test.ts
 * checks the queries in use against a fresh build with the real values.
 */
export function preparedQuery<P extends Params, R>(
  build: (db: Db, p: P) => Compilable<R>,
  /** A list page that SQLite may read on its read worker (see ReadWorker). */
  opts: { offThread?: boolean } = {},
): (db: Db, p: P) => Promise<R[]> {
  const cache = new Map<unknown, Map<string, Entry>>();
  return async (db, p) => {
    const adapter = db.getExecutor().adapter.constructor;
    let byShape = cache.get(adapter);
    if (!byShape) {
      byShape = new Map();
      cache.set(adapter, byShape);
    }
    const { values, shape } = standIns(p);
    let entry = byShape.get(shape);
    if (!entry) {
      const compiled = build(db, values as P).compile();
      entry = { sql: compiled.sql, params: [...compiled.parameters] };
      byShape.set(shape, entry);
    }
    const bound = entry.params.map((v) => (v instanceof Slot ? valueAt(p, v.path) : v));
    if (opts.offThread) {
      const read = readWorkerOf(db)?.all(entry.sql, bound);
      if (read) {
        try {
          return (await read) as R[];
        } catch {
          // The worker failed this read (or itself): the main connection reads the page.
        }
      }
    }
    const res = await db.executeQuery<R>(CompiledQuery.raw(entry.sql, bound));
    return res.rows;
  };
}
