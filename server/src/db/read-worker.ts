import type { Worker } from 'node:worker_threads';
import type { Database as SQLiteDatabase } from 'better-sqlite3';
import type { Db } from './index.ts';
import { InFlight } from './in-flight.ts';
import { inlineLimits, type LimitSlot, limitSlotsOf } from './sqlite-statements.ts';
import { startSqliteWorker, stopSqliteWorker } from './sqlite-worker.ts';

/** Separates the values of a reply's rows (the worker sends a page as one string: one copy, no clone). */
const SEP = '\u0001';
/** Stands for SQL NULL in a reply. */
const NULL = '\u0002';
/** Begins a number in a reply. */
const NUM = '\u0003';
/** Replies outstanding beyond which a page is read on the event loop's thread instead. */
const MAX_IN_FLIGHT = 64;

/**
 * The worker's code (see startSqliteWorker). A read-only
 * connection of its own runs the statements it is sent and answers each with its rows as one string:
 * the values in order, each followed by SEP, NULL for SQL NULL. Structured cloning of fifty rows of
 * objects cost the event loop about as much as reading them; one string is one copy.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { readonly: true, fileMustExist: true });
db.pragma('busy_timeout = 5000');
db.pragma('cache_size = ' + workerData.cacheSize);
db.pragma('mmap_size = ' + workerData.mmapSize);
const statements = new Map();
parentPort.on('message', (m) => {
  if (m === 'close') {
    db.close();
    parentPort.close();
    return;
  }
  try {
    let s = statements.get(m.id);
    if (!s) {
      s = db.prepare(m.sql);
      s.raw(true);
      statements.set(m.id, { s, columns: s.columns().map((c) => c.name) });
      s = statements.get(m.id);
    }
    let out = '';
    for (const row of s.s.all(m.params)) {
      for (const v of row) {
        if (typeof v === 'string') out += v + '${SEP}';
        else if (v === null) out += '${NULL}${SEP}';
        else if (typeof v === 'number') out += '${NUM}' + v + '${SEP}';
        else throw new Error('a page column is neither text, a number nor NULL');
      }
    }
    parentPort.postMessage({ n: m.n, text: out, columns: m.first ? s.columns : undefined });
  } catch (err) {
    parentPort.postMessage({ n: m.n, error: String(err && err.message || err) });
  }
});
`;

interface Statement {
  id: number;
  sql: string;
  params: (p: readonly unknown[]) => unknown[];
  columns: string[] | null;
}

interface Waiting {
  statement: Statement;
  resolve: (rows: Record<string, unknown>[]) => void;
  reject: (err: Error) => void;
}

/**
 * Reads list pages on a thread of its own (issue #18, realistic misses): the event loop of a busy
 * SQLite server spent about half of a list-page miss inside SQLite, while the machine's other core sat
 * partly idle. A page whose query opts in (`preparedQuery(…, { offThread: true })`) is read here when
 * nothing this process wrote is still uncommitted (the commit group is closed) and the query is not
 * in a transaction, so it sees exactly what the main connection would; otherwise, and should the
 * worker fail, on the main connection as before. Text, numbers and NULL come back as they
 * were; a page with any other value (a blob) is read on the main connection.
 */
export class ReadWorker {
  private worker: Worker | null = null;
  private failed = false;
  private next = 0;
  /** Replies awaited, by number (not a Map: see InFlight). */
  private readonly waiting = new InFlight<Waiting>(MAX_IN_FLIGHT * 2);
  /** By the statement's SQL as built: its LIMIT slots and its statements by limit values. */
  private readonly shapes = new Map<
    string,
    { slots: LimitSlot[]; byLimits: Map<string, Statement>; params: (p: readonly unknown[]) => unknown[] }
  >();
  private nextStatement = 0;
  /** Pages read here (tests read it). */
  reads = 0;

  constructor(
    private readonly main: SQLiteDatabase,
    /** True when the main connection holds no uncommitted write (the commit group is closed). */
    private readonly quiet: () => boolean,
    private readonly pragmas: { cacheSize: number; mmapSize: number },
  ) {}

  /** The page's rows, or null when it must be read on the main connection. */
  all(sql: string, params: readonly unknown[]): Promise<Record<string, unknown>[]> | null {
    if (this.failed || !this.main.open || !this.quiet() || this.waiting.size >= MAX_IN_FLIGHT) return null;
    if (!this.waiting.free(this.next)) return null;
    const statement = this.statementFor(sql, params);
    if (!statement) return null;
    this.worker ??= this.start();
    const worker = this.worker;
    const n = this.next++;
    this.reads++;
    return new Promise((resolve, reject) => {
      this.waiting.add(n, { statement, resolve, reject });
      worker.postMessage({
        n,
        id: statement.id,
        sql: statement.columns ? undefined : statement.sql,
        first: statement.columns === null,
        params: statement.params(params),
      });
    });
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    this.failed = true;
    for (const w of this.waiting.takeAll()) w.reject(new Error('the database is closing'));
    if (worker) await stopSqliteWorker(worker);
  }

  /** The statement with its LIMIT values inlined (as the main connection runs it), by those values. */
  private statementFor(sql: string, params: readonly unknown[]): Statement | null {
    let shape = this.shapes.get(sql);
    if (!shape) {
      const slots = limitSlotsOf(sql);
      const kept = new Set(slots.map((s) => s.param));
      shape = { slots, byLimits: new Map(), params: (p) => p.filter((_, i) => !kept.has(i)) };
      this.shapes.set(sql, shape);
    }
    const key = shape.slots.map((s) => params[s.param]).join(',');
    let statement = shape.byLimits.get(key);
    if (!statement) {
      const inlined = shape.slots.length ? inlineLimits(sql, shape.slots, params) : { sql };
      if (!inlined) return null;
      statement = { id: this.nextStatement++, sql: inlined.sql, params: shape.params, columns: null };
      shape.byLimits.set(key, statement);
    }
    return statement;
  }

  private start(): Worker {
    const worker = startSqliteWorker(WORKER_SOURCE, this.main.name, this.pragmas);
    worker.on('message', (m: { n: number; text?: string; columns?: string[]; error?: string }) => {
      const w = this.waiting.take(m.n);
      if (!w) return;
      if (m.error !== undefined) return w.reject(new Error(m.error));
      if (m.columns) w.statement.columns = m.columns;
      w.resolve(rowsOf(m.text ?? '', w.statement.columns ?? []));
    });
    // Failed or gone (an error, an exit nobody asked for): its pages are read on the main connection,
    // and the ones it still owed fail over there too (preparedQuery reads them again).
    const gone = (err: Error) => {
      if (this.worker !== worker) return;
      this.failed = true;
      this.worker = null;
      process.emitWarning(`SQLite read worker stopped (${err.message}); pages are read on the main thread`);
      for (const w of this.waiting.takeAll()) w.reject(err);
    };
    worker.on('error', gone);
    worker.on('exit', (code) => gone(new Error(`exited with code ${code}`)));
    return worker;
  }
}

function rowsOf(text: string, columns: readonly string[]): Record<string, unknown>[] {
  const n = columns.length;
  const rows: Record<string, unknown>[] = [];
  if (n === 0 || text === '') return rows;
  const values = text.split(SEP);
  // The text ends with SEP: the last element is empty.
  for (let i = 0; i + n < values.length; i += n) {
    const row: Record<string, unknown> = {};
    for (let c = 0; c < n; c++) {
      const v = values[i + c];
      row[columns[c]] = v === NULL ? null : v.charCodeAt(0) === 3 ? Number(v.slice(1)) : v;
    }
    rows.push(row);
  }
  return rows;
}

const workers = new WeakMap<Db, ReadWorker>();

/** The read worker of a database handle's Kysely instance (none on PostgreSQL, in memory, or off). */
export const readWorkerOf = (db: Db): ReadWorker | undefined => workers.get(db);

export function attachReadWorker(db: Db, worker: ReadWorker): void {
  workers.set(db, worker);
}
