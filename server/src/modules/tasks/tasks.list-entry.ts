import { isDeepStrictEqual } from 'node:util';
import { withTx } from '../../db/index.ts';
import type { AppContext } from '../../platform/context.ts';
import type { Viewer } from '../../platform/viewer.ts';
import { presentTask, taskListJson, withRights } from './tasks.presenter.ts';
import { rightsNeedShares, taskRights } from './tasks.policy.ts';
import * as repo from './tasks.repository.ts';

/**
 * The task list from stored list entries (tasks.list_json, migration 0026). A page is its entries in
 * order, each with the caller's rights appended: no user is read and nothing is presented per row, so
 * a page the read cache does not hold costs a fifth of what presenting its rows did (docs/decisions.md
 * 2026-11-27 "A task's list entry is kept on its row"). The entry is the presenter's output
 * (taskListJson), rendered when the task is written; the database forgets it when anything it was
 * rendered from changes. A forgotten entry is rendered from the rows for this page and again, stored,
 * in the background.
 */

const NO_SHARES: string[] = [];

/** Under tests every page is also presented from the rows and compared. */
const VERIFY = process.env.NODE_ENV === 'test';

export async function listTaskPage(
  ctx: AppContext,
  viewer: Viewer,
  options: repo.TaskListOptions,
): Promise<string> {
  const withShares = rightsNeedShares(viewer);
  const entries = await repo.listTaskEntries(ctx.db, { ...options, withShares });
  const missing = entries.filter((e) => e.list_json === null).map((e) => e.id);
  const rendered = new Map<string, string>();
  if (missing.length) {
    const [rows, shares] = await Promise.all([
      repo.findTasks(ctx.db, missing),
      repo.sharesOf(ctx.db, missing),
    ]);
    for (const row of rows) rendered.set(row.id, taskListJson(row, shares.get(row.id) ?? []));
    rendererOf(ctx).poke();
  }
  let body = '[';
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i];
    const json = e.list_json ?? rendered.get(e.id);
    // A task deleted between the page and the fallback read: left out, as a later page would.
    if (json === undefined) continue;
    // Without share rows (a viewer whose rights cannot depend on them) the rights are the same.
    const shared = withShares ? repo.sharedIdsOf(e) : NO_SHARES;
    body += (body.length > 1 ? ',' : '') + withRights(json, taskRights(e, shared, viewer));
  }
  body += ']';
  if (VERIFY) await verifyPage(ctx, viewer, options, body);
  return body;
}

/** Tests: the page equals the rows presented now (a stale entry would differ). */
async function verifyPage(ctx: AppContext, viewer: Viewer, options: repo.TaskListOptions, body: string) {
  const rows = await repo.listTasks(ctx.db, options);
  const expected = rows.map((r) => {
    const shared = repo.sharedIdsOf(r);
    return presentTask(r, shared, taskRights(r, shared, viewer));
  });
  const got = JSON.parse(body);
  if (!isDeepStrictEqual(got, JSON.parse(JSON.stringify(expected)))) {
    throw new Error(
      `stored task list entries differ from the rows:\n${JSON.stringify(got)}\n${JSON.stringify(expected)}`,
    );
  }
}

/** Entries rendered per transaction in the background. */
const BATCH = 100;

/**
 * Renders forgotten list entries, a batch per transaction, until none is left: at start (before the
 * server serves) and whenever a list met one. One run at a time per app; errors (the database away)
 * end the run, and the next list that meets a forgotten entry starts another.
 */
export class ListEntryRenderer {
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;

  constructor(private readonly ctx: AppContext) {}

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
    const ids = await repo.tasksWithoutListEntry(this.ctx.db, BATCH);
    if (ids.length === 0) return { found: 0, rendered: 0 };
    const rendered = await withTx(this.ctx.db, (trx) => repo.renderListEntries(trx, ids));
    return { found: ids.length, rendered };
  }
}

const renderers = new WeakMap<AppContext, ListEntryRenderer>();

export function rendererOf(ctx: AppContext): ListEntryRenderer {
  let r = renderers.get(ctx);
  if (!r) {
    r = new ListEntryRenderer(ctx);
    renderers.set(ctx, r);
  }
  return r;
}
