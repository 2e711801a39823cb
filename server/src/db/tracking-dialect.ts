import {
  CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type OperationNode,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';
import type { CommitGroup } from './commit-group.ts';
import type { TableClock } from './table-clock.ts';
import type { WalDurability } from './durability.ts';

/**
 * Ends a raw write whose loss in a crash is harmless (a budget reservation, which a restart clears):
 * it is tracked like any write but its caller does not wait for the disk flush (the next durable
 * commit flushes it too). Keeps a model call's first token free of an fsync (issue 21).
 */
export const VOLATILE_WRITE = '/* volatile */';

const READ_ROOTS = new Set(['SelectQueryNode']);
const WRITE_ROOTS = new Set(['InsertQueryNode', 'UpdateQueryNode', 'DeleteQueryNode', 'MergeQueryNode']);
/** Transaction control the driver itself sends: handled by the transaction methods. */
const TX_CONTROL = /^\s*(?:begin|commit|rollback|end|savepoint|release)\b/i;
const RAW_READ = /^\s*(?:select|explain|values)\b/i;
const RAW_READ_PRAGMA = /^\s*pragma\s+[\w.]+\s*(?:\([^)]*\))?\s*;?\s*$/i;
const RAW_WRITE =
  /^\s*(?:insert(?:\s+or\s+\w+)?\s+into|replace\s+into|update(?:\s+or\s+\w+)?|delete\s+from)\s+["`[]?(\w+)/i;

/**
 * What a statement changes: nothing (a read), a list of tables, 'all' (not understood: a raw write
 * that is not a plain INSERT/UPDATE/DELETE), or 'schema'.
 */
export function writtenTables(q: CompiledQuery): string[] | 'all' | 'schema' | null {
  // The answer follows from the SQL text alone; a write's tree walk was ~1 % of a task write.
  const known = classified.get(q.sql);
  if (known !== undefined) return known;
  const written = classify(q);
  if (classified.size >= CLASSIFIED_MAX) classified.clear();
  classified.set(q.sql, written);
  return written;
}

const classified = new Map<string, string[] | 'all' | 'schema' | null>();
const CLASSIFIED_MAX = 2000;

function classify(q: CompiledQuery): string[] | 'all' | 'schema' | null {
  const kind = q.query.kind;
  if (READ_ROOTS.has(kind)) return null;
  if (kind === 'UpdateQueryNode' && setsOnlyDerived(q.query)) return [];
  if (WRITE_ROOTS.has(kind)) return tablesIn(q.query);
  if (kind === 'RawNode') {
    const text = q.sql;
    if (TX_CONTROL.test(text) || RAW_READ.test(text) || RAW_READ_PRAGMA.test(text)) return null;
    if (/^\s*with\b/i.test(text) && !/\b(?:insert|update|delete|replace)\b/i.test(text)) return null;
    const m = RAW_WRITE.exec(text);
    return m ? [m[1]] : 'all';
  }
  return 'schema';
}

/**
 * Columns derived from others, whose writes change nothing a reader is shown: a stored list entry
 * (tasks.list_json, contacts.list_json, strategic_goals.list_json with its days) presents the same page whether it is stored or rendered from
 * the rows, so rendering one is a write (flushed like any other) that leaves cached reads in use.
 * PostgreSQL's change log leaves these columns out of its triggers for the same reason (0026, 0027).
 */
const DERIVED_COLUMNS = new Set(['list_json', 'list_from', 'list_until']);

function setsOnlyDerived(root: OperationNode): boolean {
  const updates = (root as { updates?: readonly { column?: { column?: { name?: string } } }[] }).updates;
  return (
    Array.isArray(updates) &&
    updates.length > 0 &&
    updates.every((u) => DERIVED_COLUMNS.has(u.column?.column?.name ?? ''))
  );
}

/** Every table a write statement names (its target, and any it reads: extra marks cost only a cache miss). */
function tablesIn(root: OperationNode): string[] {
  const out = new Set<string>();
  const visit = (v: unknown): void => {
    if (!v || typeof v !== 'object') return;
    if (Array.isArray(v)) {
      for (const x of v) visit(x);
      return;
    }
    const node = v as { kind?: string; table?: { identifier?: { name?: string } } };
    if (node.kind === 'TableNode' && node.table?.identifier?.name) {
      out.add(node.table.identifier.name);
      return;
    }
    for (const x of Object.values(v)) visit(x);
  };
  visit(root);
  return [...out];
}

class TrackingConnection implements DatabaseConnection {
  /** Tables written in the open transaction: marked again when it ends. */
  pending: Set<string> | 'all' | null = null;
  inTransaction = false;
  /** The open transaction is a savepoint in the commit group. */
  txGrouped = false;
  /** The open transaction wrote something: its COMMIT must be flushed. */
  private txWrote = false;
  /** The last write counted since this connection was acquired: the caller waits for its flush. */
  syncWrite: number | null = null;

  constructor(
    readonly inner: DatabaseConnection,
    private readonly changes: TableClock,
    private readonly durability: WalDurability | null,
    private readonly group: CommitGroup | null,
  ) {}

  /** Reports the statement; what it writes (null: a read). */
  private note(q: CompiledQuery): string[] | 'all' | 'schema' | null {
    const written = writtenTables(q);
    if (written === null) {
      this.changes.onRead?.(q.sql);
      return null;
    }
    if (written === 'schema') {
      this.changes.schemaChanged();
      return written;
    }
    this.changes.changed(written);
    if (!this.inTransaction) return written;
    if (written === 'all' || this.pending === 'all') this.pending = 'all';
    else {
      this.pending ??= new Set();
      for (const t of written) this.pending.add(t);
    }
    return written;
  }

  /**
   * Outside an application transaction, with a commit group: a write joins the group; a schema change
   * or a statement the tracker does not understand (a pragma among them, which does nothing inside a
   * transaction) first commits the group and then runs on its own, as before groups.
   */
  private beforeWrite(written: string[] | 'all' | 'schema'): void {
    if (!this.group) return;
    if (written === 'schema' || written === 'all' || !this.group.enabled) this.group.commit();
    else this.group.join();
  }

  /** A failed statement may have taken the group with it (see CommitGroup.check). */
  private watched<T>(p: Promise<T>): Promise<T> {
    const group = this.group;
    if (!group) return p;
    return p.catch((err) => {
      group.check(err);
      throw err;
    });
  }

  executeQuery<R>(q: CompiledQuery): Promise<QueryResult<R>> {
    const written = this.note(q);
    if (written === null || !this.durability) return this.inner.executeQuery<R>(q);
    const volatile = q.sql.endsWith(VOLATILE_WRITE);
    if (this.inTransaction) {
      if (!volatile) this.txWrote = true;
      return this.watched(this.inner.executeQuery<R>(q));
    }
    try {
      this.beforeWrite(written);
    } catch (err) {
      return Promise.reject(err);
    }
    const run = this.watched(this.inner.executeQuery<R>(q));
    return volatile ? run : run.finally(() => this.committed());
  }

  streamQuery<R>(q: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    const written = this.note(q);
    if (written !== null && this.durability) {
      if (this.inTransaction) this.txWrote = true;
      else {
        this.beforeWrite(written);
        this.committed();
      }
    }
    return this.inner.streamQuery<R>(q, chunkSize);
  }

  private committed() {
    if (this.durability) this.syncWrite = this.durability.committed();
  }

  /** The transaction ended (committed or rolled back): its writes are now what others read. */
  ended(committed: boolean) {
    if (this.pending) this.changes.changed(this.pending === 'all' ? 'all' : this.pending);
    if (committed && this.txWrote) this.committed();
    this.pending = null;
    this.txWrote = false;
    this.inTransaction = false;
  }
}

/** An application transaction inside the commit group. */
const TX_SAVEPOINT = 'cc_tx';
const SAVEPOINT = CompiledQuery.raw(`savepoint ${TX_SAVEPOINT}`);
const RELEASE = CompiledQuery.raw(`release ${TX_SAVEPOINT}`);
const ROLLBACK_TO = CompiledQuery.raw(`rollback to ${TX_SAVEPOINT}`);

type SavepointFn = NonNullable<Driver['savepoint']>;

class TrackingDriver implements Driver {
  private readonly wrapped = new WeakMap<DatabaseConnection, TrackingConnection>();
  savepoint?: SavepointFn;
  rollbackToSavepoint?: SavepointFn;
  releaseSavepoint?: SavepointFn;

  constructor(
    private readonly inner: Driver,
    private readonly changes: TableClock,
    private readonly durability: WalDurability | null,
    private readonly group: CommitGroup | null,
  ) {
    if (group && durability) {
      durability.beforeFlush = () => this.commitGroup();
      // A group holding writes someone awaits is committed by the flush they wait for; one holding
      // only volatile writes (or an application transaction's reads) is committed here.
      group.commitSoon = () => {
        if (durability.clean) this.commitGroup().catch(() => {});
      };
    }
    // Savepoints run inside the transaction; its end marks what they wrote.
    const pass = (fn: SavepointFn | undefined): SavepointFn | undefined =>
      fn && ((conn, name, compile) => fn.call(inner, (conn as TrackingConnection).inner, name, compile));
    this.savepoint = pass(inner.savepoint);
    this.rollbackToSavepoint = pass(inner.rollbackToSavepoint);
    this.releaseSavepoint = pass(inner.releaseSavepoint);
  }

  init() {
    return this.inner.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const conn = await this.inner.acquireConnection();
    let t = this.wrapped.get(conn);
    if (!t) {
      t = new TrackingConnection(conn, this.changes, this.durability, this.group);
      this.wrapped.set(conn, t);
    }
    return t;
  }

  async beginTransaction(conn: DatabaseConnection, settings: TransactionSettings) {
    const t = conn as TrackingConnection;
    t.txGrouped = this.group?.enabled === true;
    if (t.txGrouped && this.group) {
      this.group.join();
      // Marked before the statement's await, so no flush commits the group in between.
      this.group.inSavepoint = true;
      try {
        await t.inner.executeQuery(SAVEPOINT);
      } catch (err) {
        this.group.inSavepoint = false;
        t.txGrouped = false;
        throw err;
      }
    } else {
      this.group?.commit();
      await this.inner.beginTransaction(t.inner, settings);
    }
    t.inTransaction = true;
  }

  async commitTransaction(conn: DatabaseConnection) {
    const t = conn as TrackingConnection;
    let committed = false;
    try {
      if (t.txGrouped) await this.groupStep(t, RELEASE);
      else await this.inner.commitTransaction(t.inner);
      committed = true;
    } finally {
      this.endedTx(t, committed);
    }
  }

  async rollbackTransaction(conn: DatabaseConnection) {
    const t = conn as TrackingConnection;
    try {
      if (t.txGrouped) {
        await this.groupStep(t, ROLLBACK_TO);
        await this.groupStep(t, RELEASE);
      } else await this.inner.rollbackTransaction(t.inner);
    } finally {
      this.endedTx(t, false);
    }
  }

  private endedTx(t: TrackingConnection, committed: boolean) {
    if (t.txGrouped && this.group) this.group.inSavepoint = false;
    t.txGrouped = false;
    t.ended(committed);
  }

  /** A savepoint statement; when it fails, the group may be gone with it. */
  private async groupStep(t: TrackingConnection, q: CompiledQuery) {
    try {
      await t.inner.executeQuery(q);
    } catch (err) {
      this.group?.check(err);
      throw err;
    }
  }

  /**
   * Commits the group (WalDurability runs it before each flush). Outside an application transaction
   * it commits at once: better-sqlite3 runs each statement to its end on this thread, so whoever holds
   * the connection now is between statements, with nothing a COMMIT could split (waiting behind the
   * queries queued for the connection held every flush back). Inside one, once it has ended.
   */
  private async commitGroup(): Promise<void> {
    if (!this.group?.inSavepoint) {
      this.group?.commit();
      return;
    }
    const conn = await this.inner.acquireConnection();
    try {
      this.group?.commit();
    } finally {
      await this.inner.releaseConnection(conn);
    }
  }

  /**
   * Frees the connection first, so other queries run during the flush, then waits until this
   * connection's commits are on disk: the caller's next line runs after its write is durable.
   */
  async releaseConnection(conn: DatabaseConnection) {
    const t = conn as TrackingConnection;
    // Read while the connection is still held: once released, another caller may commit on it.
    const write = t.syncWrite;
    t.syncWrite = null;
    await this.inner.releaseConnection(t.inner);
    if (write !== null && this.durability) await this.durability.sync(write);
  }

  destroy() {
    return this.inner.destroy();
  }
}

/**
 * A dialect whose driver reports every write to `changes` (see {@link TableClock}) and, with
 * `durability`, makes each caller that committed a write wait until it is on disk (see {@link WalDurability}).
 */
export function trackingDialect(
  inner: Dialect,
  changes: TableClock,
  durability: WalDurability | null = null,
  group: CommitGroup | null = null,
): Dialect {
  return {
    createDriver: () => new TrackingDriver(inner.createDriver(), changes, durability, group),
    createQueryCompiler: () => inner.createQueryCompiler(),
    createAdapter: () => inner.createAdapter(),
    createIntrospector: (db) => inner.createIntrospector(db),
  };
}
