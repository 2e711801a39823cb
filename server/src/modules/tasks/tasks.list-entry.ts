import type { AppContext } from '../../platform/context.ts';
import { type ListEntrySource, listEntryRenderer } from '../../platform/list-entries.ts';
import type { Viewer } from '../../platform/viewer.ts';
import { taskListJson, withRights } from './tasks.presenter.ts';
import { rightsNeedShares, taskRights } from './tasks.policy.ts';
import * as repo from './tasks.repository.ts';

/**
 * The task list from stored list entries (tasks.list_json, migration 0026). A page is its entries in
 * order, each with the caller's rights appended: no user is read and nothing is presented per row, so
 * the SQL and assembly of a page the read cache does not hold cost about a fifth of what reading and
 * presenting its rows did, and the whole request about half (docs/decisions/ 2026-11-27 "A task's
 * list entry is kept on its row"). The entry is the presenter's output
 * (taskListJson), rendered when the task is written; the database forgets it when anything it was
 * rendered from changes. A forgotten entry is rendered from the rows for this page and again, stored,
 * in the background.
 */

const NO_SHARES: string[] = [];

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
  return body;
}

/** Where the renderer finds and renders forgotten task entries. */
const taskEntries: ListEntrySource = {
  missing: repo.tasksWithoutListEntry,
  render: repo.renderListEntries,
};

export const rendererOf = (ctx: AppContext) => listEntryRenderer(ctx, taskEntries);
