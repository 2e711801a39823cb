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
 * Where a statement's SQL binds its LIMIT: the character offset of each `limit ?` placeholder and
 * the index of its parameter (placeholders inside quoted strings and identifiers are not counted).
 */
interface LimitSlot {
  at: number;
  param: number;
}

const LIMIT_PLACEHOLDER = /\blimit\s+\?/iy;

export function limitSlotsOf(sql: string): LimitSlot[] {
  const slots: LimitSlot[] = [];
  let param = 0;
  for (let i = 0; i < sql.length; i++) {
    const c = sql[i];
    if (c === "'" || c === '"' || c === '`') {
      const end = sql.indexOf(c, i + 1);
      i = end < 0 ? sql.length : end;
    } else if (c === '?') {
      param++;
    } else if ((c === 'l' || c === 'L') && (i === 0 || !/\w/.test(sql[i - 1]))) {
      LIMIT_PLACEHOLDER.lastIndex = i;
      if (LIMIT_PLACEHOLDER.test(sql)) {
        slots.push({ at: LIMIT_PLACEHOLDER.lastIndex - 1, param });
        param++;
        i = LIMIT_PLACEHOLDER.lastIndex - 1;
      }
    }
  }
  return slots;
}

/**
 * The SQL with each LIMIT placeholder replaced by its value, and the parameters left; null when a
 * value is not a plain integer (it stays a parameter, and SQLite says what it thinks of it).
 */
export function inlineLimits(
  sql: string,
  slots: readonly LimitSlot[],
  params: readonly unknown[],
): { sql: string; params: unknown[] } | null {
  let out = '';
  let from = 0;
  for (const slot of slots) {
    const v = params[slot.param];
    if (typeof v !== 'number' || !Number.isSafeInteger(v)) return null;
    out += sql.slice(from, slot.at) + String(v);
    from = slot.at + 1;
  }
  const inlined = new Set(slots.map((s) => s.param));
  return { sql: out + sql.slice(from), params: params.filter((_, i) => !inlined.has(i)) };
}

/**
 * Kysely's SQLite driver prepares every statement anew, which profiling showed to be the largest
 * single cost of a simple authenticated request. The app builds a bounded set of distinct SQL strings,
 * so prepared statements are kept (least recently used dropped beyond the bound) and reused; the driver
 * runs one query at a time per connection, so a cached statement is never used twice at once.
 *
 * A LIMIT is run as a literal: SQLite (3.53) lets the bound value of a LIMIT steer the plan, so it
 * recompiles a statement with a `limit ?` every time that parameter is bound, which is every run (a
 * list page spent a sixth of its time recompiling its query; docs/decisions.md 2026-11-28 "A LIMIT is
 * SQL text on SQLite"). Each distinct limit is its own cached statement; there are a few (page sizes).
 */
export function withStatementCache(sqlite: SQLite.Database): SQLite.Database {
  const cache = new Map<string, DriverStatement>();
  const prepareText = (sql: string) => {
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
  const slotsBySql = new Map<string, LimitSlot[]>();
  const prepare = (sql: string): DriverStatement => {
    let slots = slotsBySql.get(sql);
    if (!slots) {
      slots = limitSlotsOf(sql);
      if (slotsBySql.size >= STATEMENT_CACHE_SIZE) slotsBySql.clear();
      slotsBySql.set(sql, slots);
    }
    const stmt = prepareText(sql);
    if (slots.length === 0) return stmt;
    const withLimits = (params: readonly unknown[]) => {
      const inlined = inlineLimits(sql, slots, params);
      return inlined ? { stmt: prepareText(inlined.sql), params: inlined.params } : { stmt, params };
    };
    return {
      reader: stmt.reader,
      all(params) {
        const x = withLimits(params);
        return x.stmt.all(x.params);
      },
      run(params) {
        const x = withLimits(params);
        return x.stmt.run(x.params);
      },
      iterate(params) {
        const x = withLimits(params);
        return x.stmt.iterate(x.params);
      },
    };
  };
  return new Proxy(sqlite, {
    get(target, prop, receiver) {
      if (prop === 'prepare') return prepare;
      const value = Reflect.get(target, prop, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
