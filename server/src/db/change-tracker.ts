import type SQLite from 'better-sqlite3';
import { TableClock } from './table-clock.ts';

/**
 * The SQLite deployment's {@link TableClock}: exact because one process sees every write (see
 * docs/decisions/, "Read cache"). Writes are reported by the tracking dialect (tracking-dialect.ts)
 * before each write statement and again when its transaction ends; a write also marks every table it
 * can change through a cascading foreign key or a trigger; and a commit by another connection to the
 * same file (PRAGMA data_version) counts as a change to everything.
 */
export class ChangeTracker extends TableClock {
  /** Table → the tables a write to it can also change (cascades and triggers, transitively). */
  private reach: Map<string, readonly string[]> | null = null;
  private readonly dataVersion: SQLite.Statement;
  private lastDataVersion: number;
  /** Another connection's commits are looked for once per event-loop turn (see beforeUse). */
  private checkedThisTurn = false;
  private readonly nextTurn = () => {
    this.checkedThisTurn = false;
  };

  constructor(private readonly sqlite: SQLite.Database) {
    super();
    this.dataVersion = sqlite.prepare('pragma data_version').pluck();
    this.lastDataVersion = this.dataVersion.get() as number;
  }

  readonly needsSync = false;

  sync(): null {
    return null;
  }

  /** The schema changed: everything counts as changed and the cascade map is read again. */
  override schemaChanged(): void {
    this.reach = null;
    super.schemaChanged();
  }

  protected override alsoChanged(table: string): readonly string[] {
    this.reach ??= cascadeReach(this.sqlite);
    return this.reach.get(table) ?? [];
  }

  /**
   * Once per event-loop turn: everything this process does within a turn counts as happening at the
   * turn's check (a commit by another process during the turn is as if it came a moment later). A
   * value read after such a commit carries an earlier stamp, so the next turn's check drops it.
   */
  protected override beforeUse() {
    if (this.checkedThisTurn) return;
    this.checkedThisTurn = true;
    setImmediate(this.nextTurn);
    const v = this.dataVersion.get() as number;
    if (v !== this.lastDataVersion) {
      this.lastDataVersion = v;
      this.schemaChanged();
    }
  }
}

const TRIGGER_WRITE =
  /\b(?:insert(?:\s+or\s+\w+)?\s+into|replace\s+into|update(?:\s+or\s+\w+)?|delete\s+from)\s+["`[]?(\w+)/gi;

/**
 * For each table, the tables a write to it can change besides itself: children through foreign keys
 * with an ON DELETE / ON UPDATE action other than NO ACTION or RESTRICT, and the tables its triggers
 * write; followed transitively.
 */
export function cascadeReach(sqlite: SQLite.Database): Map<string, readonly string[]> {
  const edges = new Map<string, Set<string>>();
  const edge = (from: string, to: string) => {
    if (from === to) return;
    const s = edges.get(from) ?? new Set<string>();
    s.add(to);
    edges.set(from, s);
  };
  const tables = sqlite
    .prepare("select name from sqlite_master where type = 'table' and name not like 'sqlite_%'")
    .pluck()
    .all() as string[];
  for (const child of tables) {
    const fks = sqlite.pragma(`foreign_key_list("${child.replaceAll('"', '""')}")`) as {
      table: string;
      on_update: string;
      on_delete: string;
    }[];
    for (const fk of fks) {
      const acts = (a: string) => a !== 'NO ACTION' && a !== 'RESTRICT';
      if (acts(fk.on_delete) || acts(fk.on_update)) edge(fk.table, child);
    }
  }
  const triggers = sqlite.prepare("select tbl_name, sql from sqlite_master where type = 'trigger'").all() as {
    tbl_name: string;
    sql: string;
  }[];
  for (const t of triggers) {
    // The statements after BEGIN (the head's "AFTER UPDATE OF col ON t" is not a write).
    const body = t.sql.slice(Math.max(0, t.sql.search(/\bbegin\b/i)));
    for (const m of body.matchAll(TRIGGER_WRITE)) edge(t.tbl_name, m[1]);
  }
  const reach = new Map<string, readonly string[]>();
  for (const start of edges.keys()) {
    const seen = new Set<string>();
    const stack = [start];
    while (stack.length) {
      for (const next of edges.get(stack.pop() as string) ?? []) {
        if (next !== start && !seen.has(next)) {
          seen.add(next);
          stack.push(next);
        }
      }
    }
    reach.set(start, [...seen]);
  }
  return reach;
}
