import type SQLite from 'better-sqlite3';

/** An open group commits by itself this long after it opened if no flush came (volatile writes only). */
const IDLE_COMMIT_MS = 20;

/**
 * SQLite: the writes of concurrent requests share one transaction (docs/decisions/ 2026-11-28
 * "Concurrent writes share a COMMIT"). A COMMIT costs SQLite about the same whatever it carries (the
 * WAL frames of every page it touched, a new FTS5 segment for the search index), 0.1–0.2 ms of the
 * event loop on this kind of machine, so one per write was a third of a task write's cost.
 *
 * The tracking dialect opens the group before a write made outside an application transaction and
 * runs each application transaction as a savepoint inside it (its ROLLBACK undoes only its own
 * statements). The group commits just before the write-ahead log is flushed (WalDurability's
 * `beforeFlush`), so the writes that arrive while a flush runs share the next COMMIT, and a write is
 * still acknowledged only once its COMMIT is on disk. Reads on the one connection see the group's
 * writes at once, as they saw a commit whose flush was due; they are held back until the flush as
 * before.
 *
 * A statement that fails with disk full or an I/O error can make SQLite roll the whole transaction
 * back; {@link check} notices and {@link onLost} fails every write the group held.
 */
/** The group ended without an error the dialect saw (answered 503, like other database faults). */
const vanished = () =>
  Object.assign(new Error('The database ended a transaction on its own; its writes were not kept'), {
    code: 'SQLITE_ABORT',
  });

/**
 * The groups of this process by database file. A second connection to the same file in one process
 * (tests run two app instances on one file) would wait on the first one's open group inside SQLite's
 * busy handler, on the very thread that must commit it: while several are open, none groups.
 */
const openByFile = new Map<string, Set<CommitGroup>>();

export class CommitGroup {
  /** COMMITs of the group so far (tests and probes read it). */
  commits = 0;
  /**
   * Commits the group once the connection is free, when no flush came for it (the dialect sets it):
   * a group holding only volatile writes, or only reads of an application transaction.
   */
  commitSoon: () => void = () => {};
  /** An application transaction is open in the group (the dialect sets it). */
  inSavepoint = false;
  private open = false;
  private timer: NodeJS.Timeout | null = null;
  private readonly beginStmt: SQLite.Statement;
  private readonly commitStmt: SQLite.Statement;
  private readonly rollbackStmt: SQLite.Statement;

  constructor(
    private readonly sqlite: SQLite.Database,
    private readonly on: {
      /** The group committed (the durability counts it; the checkpointer may copy frames now). */
      committed: () => void;
      /** The group was rolled back with its writes. */
      lost: (err: unknown) => void;
    },
  ) {
    let peers = openByFile.get(sqlite.name);
    if (!peers) {
      peers = new Set();
      openByFile.set(sqlite.name, peers);
    }
    // The others stop grouping: what they hold commits now, unless a transaction is half-way in it
    // (it commits at its flush, in a few milliseconds).
    for (const peer of peers) {
      if (peer.open && !peer.inSavepoint) {
        try {
          peer.commit();
        } catch {
          // Lost: its writers are told (see commit).
        }
      }
    }
    peers.add(this);
    this.beginStmt = sqlite.prepare('begin immediate');
    this.commitStmt = sqlite.prepare('commit');
    this.rollbackStmt = sqlite.prepare('rollback');
  }

  /** The shared transaction is open: writes of this process are not committed yet. */
  get isOpen(): boolean {
    return this.open;
  }

  /** False while another connection of this process has the same file open (see openByFile). */
  get enabled(): boolean {
    return openByFile.get(this.sqlite.name)?.size === 1;
  }

  /** The connection closes (after its last flush committed the group). */
  close(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const peers = openByFile.get(this.sqlite.name);
    peers?.delete(this);
    if (peers?.size === 0) openByFile.delete(this.sqlite.name);
  }

  /** Opens the group if it is not open (the caller holds the connection). */
  join(): void {
    if (this.open && !this.sqlite.inTransaction) this.check(vanished());
    if (this.open) return;
    this.beginStmt.run();
    this.open = true;
    this.arm();
  }

  /** Until the group has committed, asks every IDLE_COMMIT_MS for it to be committed. */
  private arm(): void {
    this.timer = setTimeout(() => {
      this.timer = null;
      this.commitSoon();
      if (this.open && this.timer === null) this.arm();
    }, IDLE_COMMIT_MS);
    this.timer.unref();
  }

  /** Commits the open group (the caller holds the connection, outside any savepoint). */
  commit(): void {
    if (this.open && !this.sqlite.inTransaction) this.check(vanished());
    if (!this.open) return;
    this.open = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    try {
      this.commitStmt.run();
    } catch (err) {
      if (this.sqlite.inTransaction) this.rollbackStmt.run();
      this.on.lost(err);
      throw err;
    }
    this.commits++;
    this.on.committed();
  }

  /** After `err` failed a statement: SQLite may have rolled the group back by itself. */
  check(err: unknown): void {
    if (!this.open || this.sqlite.inTransaction) return;
    this.open = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.on.lost(err);
  }
}
