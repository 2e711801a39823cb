import type pg from 'pg';
import { TableClock } from './table-clock.ts';

/**
 * Reads older than this are not trusted: the change log keeps about twice as long (see prune), and
 * an instance idle for longer counts everything as changed.
 */
const HORIZON_MS = 5 * 60_000;
const PRUNE_EVERY_MS = 60_000;

/**
 * The tables changed by transactions that committed after snapshot $1 and before this statement's own
 * snapshot (which it returns). Rows of transactions that finished before $1's xmin are visible in $1,
 * so the range on the primary key bounds the scan; a rolled-back writer leaves no row.
 */
const CHANGES_SINCE = `select pg_current_snapshot()::text as snapshot,
  array(select distinct tbl from read_changes
        where xid >= pg_snapshot_xmin($1::pg_snapshot) and not pg_visible_in_snapshot(xid, $1::pg_snapshot)) as tables`;

/** The first look: a snapshot to start from, and which tables have the change-log trigger. */
const START = `select pg_current_snapshot()::text as snapshot,
  array(select c.relname::text from pg_trigger t join pg_class c on c.oid = t.tgrelid
        where t.tgname = 'read_changes_log') as tables`;

/**
 * PostgreSQL's {@link TableClock}: other instances write unseen, so each request first learns what
 * committed since the last look. Migration 0024 keeps a change log (`read_changes`: one row per
 * transaction and table, written by a statement trigger in the writer's own transaction, so it
 * commits or rolls back with the write and never makes writers wait on one another); `sync()` asks for
 * the tables of transactions not visible in the previous look's snapshot and marks them changed.
 *
 * A request awaits a look that began after it arrived, so a write acknowledged to anyone before that
 * (on any instance) is seen: a stamp taken afterwards is current, and a value read after the stamp is
 * kept only until a later look reports one of its tables. Requests arriving while a look is under way
 * share the next one, so under load one round trip serves many requests.
 */
export class PgChangeFeed extends TableClock {
  private snapshot: string | null = null;
  /** Tables whose writes are logged; a read from any other table is never current (not cached). */
  private logged = new Set<string>();
  private lookedAt = 0;
  private running: Promise<void> | null = null;
  private next: Promise<void> | null = null;
  /** xmin of a snapshot taken at each prune, oldest first, for removing old log rows. */
  private readonly marks: { at: number; xmin: string }[] = [];
  private readonly pruneTimer: NodeJS.Timeout;

  constructor(
    private readonly pool: pg.Pool,
    private readonly now: () => number = Date.now,
  ) {
    super();
    this.pruneTimer = setInterval(() => void this.prune().catch(() => {}), PRUNE_EVERY_MS);
    this.pruneTimer.unref();
  }

  readonly needsSync = true;

  sync(): Promise<void> {
    if (this.next) return this.next;
    if (!this.running) return this.start();
    // The look under way may have taken its snapshot before this caller arrived: wait for the next.
    this.next = this.running
      .catch(() => {})
      .then(() => {
        this.next = null;
        return this.start();
      });
    return this.next;
  }

  override unchangedSince(stamp: number, tables: readonly string[]): boolean {
    for (const t of tables) if (!this.logged.has(t)) return false;
    return super.unchangedSince(stamp, tables);
  }

  override caches(table: string): boolean {
    return this.logged.has(table);
  }

  close(): void {
    clearInterval(this.pruneTimer);
  }

  private start(): Promise<void> {
    const run = this.look().finally(() => {
      if (this.running === run) this.running = null;
    });
    this.running = run;
    return run;
  }

  private async look(): Promise<void> {
    const at = this.now();
    const since = this.snapshot && at - this.lookedAt < HORIZON_MS ? this.snapshot : null;
    const { rows } = await this.pool.query<{ snapshot: string; tables: string[] }>(
      since === null
        ? { name: 'read_changes_start', text: START }
        : { name: 'read_changes_since', text: CHANGES_SINCE, values: [since] },
    );
    const { snapshot, tables } = rows[0];
    // First look, or the log may have been pruned past the last one: everything may have changed.
    if (since === null) {
      this.logged = new Set(tables);
      this.changed('all');
      // Before migration 0024 there is no log to read: keep starting over.
      if (!this.logged.size) return;
    } else if (tables.length) this.changed(tables);
    this.snapshot = snapshot;
    this.lookedAt = at;
  }

  /** Removes log rows no instance still needs: older than twice the horizon. */
  private async prune(): Promise<void> {
    const at = this.now();
    const { rows } = await this.pool.query<{ xmin: string }>(
      'select pg_snapshot_xmin(pg_current_snapshot())::text as xmin',
    );
    this.marks.push({ at, xmin: rows[0].xmin });
    let cut: string | null = null;
    while (this.marks.length && at - this.marks[0].at >= 2 * HORIZON_MS)
      cut = this.marks.shift()?.xmin ?? cut;
    if (cut) await this.pool.query('delete from read_changes where xid < $1::xid8', [cut]);
  }
}
