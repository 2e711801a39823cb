import {
  COMPLETED_GOAL_STATUSES,
  COMPLETED_TASK_STATUS,
  MAX_KPIS_PER_GOAL,
  ZContactListQuery,
  ZGoalListQuery,
  ZTaskListQuery,
} from '@cc/contract';
import { expect } from 'vitest';
import { presentRows as presentContacts } from '../src/modules/contacts/contacts.service.ts';
import * as contactsRepo from '../src/modules/contacts/contacts.repository.ts';
import { historyOf } from '../src/modules/goals/goals.history.ts';
import { goalRights } from '../src/modules/goals/goals.policy.ts';
import { presentGoal } from '../src/modules/goals/goals.presenter.ts';
import * as goalsRepo from '../src/modules/goals/goals.repository.ts';
import { membershipLevelsOf } from '../src/modules/organizations/memberships.service.ts';
import { presentTask } from '../src/modules/tasks/tasks.presenter.ts';
import { taskRights } from '../src/modules/tasks/tasks.policy.ts';
import * as tasksRepo from '../src/modules/tasks/tasks.repository.ts';
import type { AppContext } from '../src/platform/context.ts';
import { type Viewer, viewerOf } from '../src/platform/viewer.ts';
import type { TestApp, TestUser } from './helpers.ts';

/**
 * The list pages a stored-entry page must equal: each page's rows read with the plain (unprepared)
 * row query and presented now by the presenter, for the same query string as the request. A stale
 * stored entry, a stale cached body or a prepared statement that drifted from its query differs.
 */

type Query = Record<string, string>;

async function viewerFor(ctx: AppContext, user: TestUser): Promise<Viewer> {
  return viewerOf(user, await membershipLevelsOf(ctx, user.id));
}

export async function freshTaskPage(ctx: AppContext, user: TestUser, query: Query = {}) {
  const viewer = await viewerFor(ctx, user);
  const q = ZTaskListQuery.parse(query);
  const rows = await tasksRepo
    .listTasksQuery(ctx.db, {
      userId: viewer.id,
      orgIds: viewer.orgIds,
      search: q.search,
      status: q.status,
      priority: q.priority,
      assignedTo: q.assignedTo,
      includeCompleted: q.include_completed,
      completedStatus: COMPLETED_TASK_STATUS,
      skip: q.skip,
      limit: q.limit,
    })
    .execute();
  return rows.map((r) => {
    const shared = tasksRepo.sharedIdsOf(r);
    return presentTask(r, shared, taskRights(r, shared, viewer));
  });
}

export async function freshContactPage(ctx: AppContext, user: TestUser, query: Query = {}) {
  const viewer = await viewerFor(ctx, user);
  const q = ZContactListQuery.parse(query);
  const rows = await contactsRepo
    .listContactsQuery(ctx.db, {
      userId: viewer.id,
      orgIds: viewer.orgIds,
      search: q.search,
      skip: q.skip,
      limit: q.limit,
    })
    .execute();
  return presentContacts(ctx, viewer, rows);
}

export async function freshGoalPage(ctx: AppContext, user: TestUser, query: Query = {}) {
  const viewer = await viewerFor(ctx, user);
  const q = ZGoalListQuery.parse(query);
  const rows = await goalsRepo
    .listGoalsQuery(ctx.db, {
      userId: viewer.id,
      orgIds: viewer.orgIds,
      search: q.search,
      status: q.status,
      organizationId: q.organization_id,
      sortBy: q.sort_by,
      includeCompleted: q.include_completed,
      completed: COMPLETED_GOAL_STATUSES,
      skip: q.skip,
      limit: q.limit,
    })
    .execute();
  const kpis = await goalsRepo.listKpis(
    ctx.db,
    rows.map((r) => r.id),
    MAX_KPIS_PER_GOAL,
  );
  const history = await historyOf(ctx.db, kpis);
  return rows.map((row) =>
    presentGoal(
      row,
      kpis.filter((k) => k.goal_id === row.id),
      goalRights(row, viewer),
      history,
    ),
  );
}

const LISTS = [
  { path: '/api/tasks/', fresh: freshTaskPage },
  { path: '/api/contacts/', fresh: freshContactPage },
  { path: '/api/strategic-goals/', fresh: freshGoalPage },
] as const;

/**
 * Each user's task, contact and goal pages, read through the API until the response cache answers
 * (a miss, then a hit), equal the pages presented afresh at every read. `query` applies to every list
 * (e.g. include_completed). A background write landing between two reads makes the second a miss
 * too: the reads go on (up to 20) until one is a hit.
 */
export async function expectListsFresh(t: TestApp, users: readonly TestUser[], query: Query = {}) {
  const qs = new URLSearchParams(query).toString();
  for (const user of users) {
    for (const list of LISTS) {
      const url = qs ? `${list.path}?${qs}` : list.path;
      const expected = JSON.parse(JSON.stringify(await list.fresh(t.ctx, user, query)));
      let hit = false;
      for (let read = 0; read < 20 && !hit; read++) {
        const res = await t.req({ method: 'GET', url, token: user.token });
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json(), `${url} for ${user.email} (read ${read}, ${res.headers['x-cache']})`).toEqual(
          expected,
        );
        hit = res.headers['x-cache'] === 'hit';
        if (!hit && read > 0) await new Promise((r) => setTimeout(r, 20));
      }
      expect(hit, `${url} for ${user.email} answered from the response cache`).toBe(true);
    }
  }
}
