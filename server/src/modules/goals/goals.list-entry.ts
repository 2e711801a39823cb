import { MAX_KPIS_PER_GOAL } from '@cc/contract';
import type { Db } from '../../db/index.ts';
import type { GoalKpisTable } from '../../db/types.ts';
import type { AppContext } from '../../platform/context.ts';
import { type ListEntrySource, listEntryRenderer, lockForRender } from '../../platform/list-entries.ts';
import type { Viewer } from '../../platform/viewer.ts';
import { historyOf, todayUtc } from './goals.history.ts';
import { goalRights } from './goals.policy.ts';
import { entryHolds, goalListEntry, withRights } from './goals.presenter.ts';
import * as repo from './goals.repository.ts';

/**
 * The goal list from stored list entries (strategic_goals.list_json, migration 0028), as the task and
 * contact lists do (tasks.list-entry.ts): a page is its entries in order, each with the caller's rights
 * appended, so a page reads no KPI or check-in and presents nothing per row. An entry holds for the
 * days its KPIs' `stale` stays as rendered; a forgotten or outdated one is rendered from the rows for
 * this page and again, stored, in the background.
 */

export async function listGoalPage(
  ctx: AppContext,
  viewer: Viewer,
  options: repo.GoalListOptions,
): Promise<string> {
  const entries = await repo.listGoalEntries(ctx.db, options);
  const today = todayUtc();
  const missing = entries.filter((e) => !entryHolds(e, today)).map((e) => e.id);
  const rendered = missing.length ? await renderFromRows(ctx, missing) : new Map<string, string>();
  let body = '[';
  for (const e of entries) {
    const json = entryHolds(e, today) ? e.list_json : rendered.get(e.id);
    // A goal deleted between the page and the fallback read: left out, as a later page would.
    if (json === undefined) continue;
    body += (body.length > 1 ? ',' : '') + withRights(json, goalRights(e, viewer));
  }
  body += ']';
  return body;
}

/** The goals' KPIs (in their order) and each entry rendered from the rows as of today. */
async function entriesFromRows(db: Db, ids: readonly string[]) {
  const rows = await repo.findGoals(db, ids);
  const kpis = await repo.listKpis(
    db,
    rows.map((r) => r.id),
    MAX_KPIS_PER_GOAL,
  );
  const byGoal = new Map<string, GoalKpisTable[]>(rows.map((r) => [r.id, []]));
  for (const k of kpis) byGoal.get(k.goal_id)?.push(k);
  const history = await historyOf(db, kpis);
  return rows.map((row) => ({ id: row.id, entry: goalListEntry(row, byGoal.get(row.id) ?? [], history) }));
}

/** Entries to render, from the rows for this page (the background renderer stores them). */
async function renderFromRows(ctx: AppContext, ids: string[]): Promise<Map<string, string>> {
  const rendered = await entriesFromRows(ctx.db, ids);
  rendererOf(ctx).poke();
  return new Map(rendered.map((r) => [r.id, r.entry.list_json]));
}

/** Renders and stores these goals' list entries (in the writer's transaction or its own: lockForRender). */
export async function renderListEntries(db: Db, ids: readonly string[]): Promise<number> {
  const sorted = await lockForRender(db, 'strategic_goals', ids);
  if (sorted.length === 0) return 0;
  const rendered = await entriesFromRows(db, sorted);
  for (const r of rendered) await repo.storeListEntry(db, r.id, r.entry);
  return rendered.length;
}

/** Where the renderer finds and renders forgotten or outdated goal entries. */
const goalEntries: ListEntrySource = {
  missing: (db, limit) => repo.goalsWithoutListEntry(db, limit, todayUtc()),
  render: renderListEntries,
};

export const rendererOf = (ctx: AppContext) => listEntryRenderer(ctx, goalEntries);
