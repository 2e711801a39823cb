import { PostgresAdapter } from 'kysely';
import { type Db, withTx } from '../db/index.ts';
import type { AppContext } from './context.ts';

/**
 * Stored list entries (tasks.list_json, contacts.list_json, strategic_goals.list_json): a record's presented list entry kept on
 * its row, rendered by its module when it writes the record and forgotten (set NULL) by database
 * triggers when anything it shows changes. This renders the forgotten ones again, a batch per
 * transaction, until none is left: at start (before the server serves) and whenever a list met one.
 */
export interface ListEntrySource {
  /** Up to `limit` ids whose entry is forgotten (a partial index on `list_json is null`). */
  missing(db: Db, limit: number): Promise<string[]>;
  /** Renders and stores these records' entries; resolves with how many it rendered. */
  render(db: Db, ids: readonly string[]): Promise<number>;
}

/**
 * The records of `ids` to render now, in id order. On PostgreSQL they are locked first and read after
 * (so a change committed meanwhile is either read by the render or, waiting for the lock, forgets the
 * entry after it is written); a row another transaction holds is skipped (that writer renders it, or
 * a later run does), so a background render never waits on a writer nor deadlocks with one. SQLite
 * runs one write transaction at a time.
 */
export async function lockForRender(
  db: Db,
  table: 'tasks' | 'contacts' | 'strategic_goals',
  ids: readonly string[],
): Promise<string[]> {
  const sorted = [...new Set(ids)].sort();
  if (sorted.length === 0 || !(db.getExecutor().adapter instanceof PostgresAdapter)) return sorted;
  const locked = await db
    .selectFrom(table)
    .select('id')
    .where('id', 'in', sorted)
    .orderBy('id')
    .forUpdate()
    .skipLocked()
    .execute();
  return locked.map((r) => r.id);
}

/** Entries rendered per transaction. */
const BATCH = 100;

/**
 * One run at a time per app and source; errors (the database away) end the run, and the next list
 * that meets a forgotten entry starts another.
 */
export class ListEntryRenderer {
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;

  constructor(
    private readonly db: Db,
    private readonly source: ListEntrySource,
  ) {}

  /** Renders every forgotten entry now (start-up); resolves with how many were rendered. */
  async catchUp(): Promise<number> {
    let total = 0;
    for (;;) {
      const { found, rendered } = await this.batch();
      total += rendered;
      if (found < BATCH || rendered < found) return total;
    }
  }

  /** A list met a forgotten entry: render them soon, off the request. */
  poke(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => this.drainInBackground())
      .catch(() => {})
      .finally(() => {
        this.running = null;
        if (this.again && !this.stopped) {
          this.again = false;
          this.poke();
        }
      });
  }

  /** Stops after the batch in progress (app close). */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.running;
  }

  private async drainInBackground() {
    for (;;) {
      if (this.stopped) return;
      const { found, rendered } = await this.batch();
      if (found < BATCH || rendered < found) return;
      // Let requests run between batches.
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }

  /** One transaction; `rendered` < `found` means some could not be (gone meanwhile): stop there. */
  private async batch(): Promise<{ found: number; rendered: number }> {
    const ids = await this.source.missing(this.db, BATCH);
    if (ids.length === 0) return { found: 0, rendered: 0 };
    const rendered = await withTx(this.db, (trx) => this.source.render(trx, ids));
    return { found: ids.length, rendered };
  }
}

const renderers = new WeakMap<AppContext, Map<ListEntrySource, ListEntryRenderer>>();

/** The app's renderer of this source (one per app, so tests' apps stay apart). */
export function listEntryRenderer(ctx: AppContext, source: ListEntrySource): ListEntryRenderer {
  let bySource = renderers.get(ctx);
  if (!bySource) {
    bySource = new Map();
    renderers.set(ctx, bySource);
  }
  let r = bySource.get(source);
  if (!r) {
    r = new ListEntryRenderer(ctx.db, source);
    bySource.set(source, r);
  }
  return r;
}

/** Renders the forgotten entries before the server serves and stops the renderer when it closes. */
export function renderListEntriesAtStart(
  app: {
    addHook(name: 'onReady', fn: () => Promise<void>): unknown;
    addHook(name: 'onClose', fn: () => Promise<void>): unknown;
    log: { info(o: object, msg: string): void; warn(o: object, msg: string): void };
  },
  renderer: ListEntryRenderer,
  what: string,
): void {
  app.addHook('onReady', async () => {
    const rendered = await renderer
      .catchUp()
      .catch((err) => app.log.warn({ err }, `${what} list entries could not be rendered`));
    if (rendered) app.log.info({ rendered }, `rendered ${what} list entries`);
  });
  app.addHook('onClose', () => renderer.stop());
}
