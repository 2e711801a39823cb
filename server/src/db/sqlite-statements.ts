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
export interface LimitSlot {
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

/** A statement's LIMIT slots and its statements with the limits inlined, by their values. */
interface StatementLimits {
  slots: LimitSlot[];
  byValues: Map<number | string, DriverStatement>;
  /** false at the index of each parameter a LIMIT takes. */
  kept: boolean[];
}

/** Distinct sets of LIMIT values kept per statement (page sizes; beyond it the set starts over). */
const LIMIT_VALUES_PER_STATEMENT = 16;

function statementLimits(sql: string): StatementLimits {
  const slots = limitSlotsOf(sql);
  const kept: boolean[] = [];
  for (const slot of slots) kept[slot.param] = false;
  return { slots, byValues: new Map(), kept };
}

/** The LIMIT values of a run as a key (the number itself for one LIMIT); null unless all are integers. */
function limitKey(slots: readonly LimitSlot[], params: readonly unknown[]): number | string | null {
  if (slots.length === 1) {
    const v = params[slots[0].param];
    return typeof v === 'number' && Number.isSafeInteger(v) ? v : null;
  }
  let key = '';
  for (const slot of slots) {
    const v = params[slot.param];
    if (typeof v !== 'number' || !Number.isSafeInteger(v)) return null;
    key += `${v},`;
  }
  return key;
}

/**
 * Kysely's SQLite driver prepares every statement anew, which profiling showed to be the largest
 * single cost of a simple authenticated request. The app builds a bounded set of distinct SQL strings,
 * so prepared statements are kept (least recently used dropped beyond the bound) and reused; the driver
 * runs one query at a time per connection, so a cached statement is never used twice at once.
 *
 * A LIMIT is run as a literal: SQLite (3.53) lets the bound value of a LIMIT steer the plan, so it
 * recompiles a statement with a `limit ?` every time that parameter is bound, which is every run (a
 * list page spent a sixth of its time recompiling its query; docs/decisions/ 2026-11-28 "A LIMIT is
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
  const limitsBySql = new Map<string, StatementLimits>();
  const prepare = (sql: string): DriverStatement => {
    let limits = limitsBySql.get(sql);
    if (!limits) {
      limits = statementLimits(sql);
      if (limitsBySql.size >= STATEMENT_CACHE_SIZE) limitsBySql.clear();
      limitsBySql.set(sql, limits);
    }
    const stmt = prepareText(sql);
    if (limits.slots.length === 0) return stmt;
    const { slots, byValues, kept } = limits;
    // The statement for these limit values, prepared once per distinct set of values (a few page
    // sizes): neither the SQL with the values nor its hash is built again on every run.
    const withLimits = (params: readonly unknown[]) => {
      const key = limitKey(slots, params);
      if (key === null) return { stmt, params };
      let inlined = byValues.get(key);
      if (!inlined) {
        inlined = rowReader(sqlite.prepare((inlineLimits(sql, slots, params) as { sql: string }).sql));
        if (byValues.size >= LIMIT_VALUES_PER_STATEMENT) byValues.clear();
        byValues.set(key, inlined);
      }
      return { stmt: inlined, params: params.filter((_, i) => kept[i] !== false) };
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
