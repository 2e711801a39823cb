/**
 * When each table last changed, on a clock of this process, so a cached read can prove it is still
 * current: it takes a {@link TableClock.stamp} before reading and is current while none of the tables
 * it read changed after that stamp. Who reports the changes differs per engine: ChangeTracker on SQLite
 * (one process sees every write), PgChangeFeed on PostgreSQL (other instances' commits come from the
 * database's change log).
 */
export abstract class TableClock {
  private clock = 0;
  /** The last time everything counted as changed (a schema change, an unparsed write, another process). */
  private allChangedAt = 0;
  private readonly changedAt = new Map<string, number>();
  /** Told the SQL of every read, where a test listens (what a cached route reads); null otherwise. */
  onRead: ((sql: string) => void) | null = null;

  /**
   * Null where a stamp is current as soon as it is taken (SQLite). Otherwise a promise that settles
   * once the changes committed before this call are known: a request awaits it before its first stamp.
   */
  abstract sync(): Promise<void> | null;

  /** Whether requests must await {@link sync} before their first stamp. */
  abstract readonly needsSync: boolean;

  /** The current time; take it before the reads a cached value is made from. */
  stamp(): number {
    this.beforeUse();
    return this.clock;
  }

  /** True while none of `tables` changed after `stamp`. */
  unchangedSince(stamp: number, tables: readonly string[]): boolean {
    this.beforeUse();
    return this.untouchedSince(stamp, tables);
  }

  /**
   * True while this process has seen no change to `tables` after `stamp`: its own writes (reported as
   * they run) and what it was told of others. Unlike {@link unchangedSince} it does not claim that
   * writes it cannot see (PostgreSQL's unlogged tables, another instance before the next look) did not
   * happen: for values that must only follow this process's own writes.
   */
  untouchedSince(stamp: number, tables: readonly string[]): boolean {
    if (this.allChangedAt > stamp) return false;
    for (const t of tables) if ((this.changedAt.get(t) ?? 0) > stamp) return false;
    return true;
  }

  /** A write to these tables (and whatever they cascade into); 'all' when the tables are unknown. */
  changed(tables: Iterable<string> | 'all'): void {
    const now = ++this.clock;
    if (tables === 'all') {
      this.allChangedAt = now;
      return;
    }
    for (const t of tables) {
      this.changedAt.set(t, now);
      for (const r of this.alsoChanged(t)) this.changedAt.set(r, now);
    }
  }

  /** The schema changed: everything counts as changed. */
  schemaChanged(): void {
    this.changed('all');
  }

  /** Whether reads from `table` can be cached at all (PostgreSQL: only tables whose writes are logged). */
  caches(_table: string): boolean {
    return true;
  }

  /** Tables a write to `table` can also change (cascades, triggers) where the engine needs telling. */
  protected alsoChanged(_table: string): readonly string[] {
    return [];
  }

  /** Called before a stamp is taken or compared (SQLite looks for other connections' commits there). */
  protected beforeUse(): void {}
}
