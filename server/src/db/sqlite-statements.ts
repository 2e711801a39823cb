import type SQLite from 'better-sqlite3';

const STATEMENT_CACHE_SIZE = 500;

/** What Kysely's SQLite driver uses of a prepared statement. */
interface DriverStatement {
  readonly reader: boolean;
  all(params: readonly unknown[]): unknown[];
  run(params: readonly unknown[]): SQLite.RunResult;
  iterate(params: readonly unknown[]): IterableIterator<unknown>;
}

/**
 * Reads rows as arrays and builds the objects in JavaScript. better-sqlite3 builds a row object
 * through one V8 API call per column, which profiling showed to be the largest single cost of a list
 * page (50 rows of 18 columns: about 2x to 4x slower than fetching the same rows as arrays and
 * assigning the properties here). Later columns of the same name win, as in better-sqlite3.
 */
function rowReader(stmt: SQLite.Statement): DriverStatement {
  if (!stmt.reader) {
    return {
      reader: false,
      all: (p) => stmt.all(p),
      run: (p) => stmt.run(p),
      iterate: (p) => stmt.iterate(p),
    };
  }
  const names = stmt.columns().map((c) => c.name);
  const n = names.length;
  const toObject = (values: unknown[]) => {
    const row: Record<string, unknown> = {};
    for (let i = 0; i < n; i++) row[names[i]] = values[i];
    return row;
  };
  stmt.raw(true);
  return {
    reader: true,
    all(p) {
      const rows = stmt.all(p) as unknown[][];
      const out = new Array(rows.length);
      for (let i = 0; i < rows.length; i++) out[i] = toObject(rows[i]);
      return out;
    },
    run: (p) => stmt.run(p),
    *iterate(p) {
      for (const values of stmt.iterate(p) as IterableIterator<unknown[]>) yield toObject(values);
    },
  };
}

/**
 * Kysely's SQLite driver prepares every statement anew, which profiling showed to be the largest
 * single cost of a simple authenticated request. The app builds a bounded set of distinct SQL strings,
 * so prepared statements are kept (least recently used dropped beyond the bound) and reused; the driver
 * runs one query at a time per connection, so a cached statement is never used twice at once.
 */
export function withStatementCache(sqlite: SQLite.Database): SQLite.Database {
  const cache = new Map<string, DriverStatement>();
  const prepare = (sql: string) => {
    let stmt = cache.get(sql);
    if (stmt) {
      cache.delete(sql);
    } else {
      stmt = rowReader(sqlite.prepare(sql));
      if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
    }
    cache.set(sql, stmt);
    return stmt;
  };
  return new Proxy(sqlite, {
    get(target, prop, receiver) {
      if (prop === 'prepare') return prepare;
      const value = Reflect.get(target, prop, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
