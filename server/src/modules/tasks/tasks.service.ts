import { randomUUID } from 'node:crypto';
import {
  CLOSED_TASK_STATUSES,
  COMPLETED_TASK_STATUS,
  citationUrl,
  DASHBOARD_URGENT_PRIORITY,
  GOAL_RECENTLY_DONE_DAYS,
  GOAL_TASKS_LIMIT,
  type TGoalTasks,
  type TRecordCitation,
  type TTask,
  type TTaskShare,
  type ZAssignTaskRequest,
  type ZCreateTaskRequest,
  type ZShareOrgsRequest,
  type ZTaskListQuery,
  type ZUpdateTaskRequest,
  type ZUrgentTaskQuery,
} from '@cc/contract';
import type { z } from 'zod';
import { nowIso, withTx } from '../../db/index.ts';
import type { TasksTable } from '../../db/types.ts';
import { assertShareable, memberOfAny } from '../../platform/access.ts';
import type { AuthUser } from '../../platform/auth/authenticate.ts';
import type { AppContext } from '../../platform/context.ts';
import { AppError, badRequest, forbidden } from '../../platform/errors.ts';
import { loadViewer, loadWithRights, type Viewer, type ViewerScope } from '../../platform/viewer.ts';
import { isGoalVisible, loadGoal } from '../goals/goals.service.ts';
import { organizationIdsOf } from '../organizations/memberships.service.ts';
import { getUserSummary } from '../users/users.service.ts';
import { ANY_VERSION, nextVersion, type Precondition } from '../../platform/concurrency.ts';
import { presentTask, taskListJson } from './tasks.presenter.ts';
import { listTaskPage } from './tasks.list-entry.ts';
import { canShareTask, taskRights, taskVisibilityBranches } from './tasks.policy.ts';
import * as repo from './tasks.repository.ts';

/** The task, its shares and the caller's rights; 404 when the caller may not see it. */
async function load(ctx: AppContext, caller: AuthUser, id: string) {
  const { row, shares, viewer, rights } = await loadWithRights(ctx, caller, {
    find: () => repo.findTask(ctx.db, id),
    shares: async () => (await repo.sharesOf(ctx.db, [id])).get(id) ?? [],
    rights: taskRights,
    missing: 'Task not found',
  });
  return { row, viewer, shared: shares, rights };
}

async function present(ctx: AppContext, caller: AuthUser, id: string): Promise<TTask> {
  const { row, shared, rights } = await load(ctx, caller, id);
  return presentTask(row, shared, rights);
}

async function presentRows(ctx: AppContext, viewer: Viewer, rows: repo.TaskRow[]) {
  const shares = await repo.sharesOf(
    ctx.db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => {
    const shared = shares.get(r.id) ?? [];
    return presentTask(r, shared, taskRights(r, shared, viewer));
  });
}

/**
 * Who can be assigned: the caller, or an approved (not waitlisted) user who shares an organization
 * with the caller. Anyone else is refused with 400.
 */
/** The e-mail and names shown for a task's creator or assignee. */
type UserNames = Pick<AuthUser, 'email' | 'first_name' | 'last_name'>;

/** Refuses an assignee the caller may not pick; else gives their names (for the created task). */
async function assertAssignable(
  ctx: AppContext,
  viewer: Viewer,
  caller: AuthUser,
  userId: string,
): Promise<UserNames> {
  if (userId === viewer.id) return caller;
  const message = 'The assignee must be you or a member of one of your organizations.';
  const target = await getUserSummary(ctx, userId);
  if (!target || target.user_level === 'waitlisted') throw badRequest(message);
  const theirs = await organizationIdsOf(ctx, userId);
  if (!memberOfAny(viewer.levels, theirs)) throw badRequest(message);
  return target;
}

/**
 * A task links only to a goal the caller may see (the goal policy); any other id, existing or not, is
 * the same 422, so the answer never tells whether a goal someone else sees exists.
 */
async function assertLinkableGoal(ctx: AppContext, viewer: Viewer, goalId: string) {
  if (await isGoalVisible(ctx, viewer, goalId)) return;
  throw new AppError(422, [{ loc: ['body', 'goal_id'], msg: 'Goal not found', type: 'value_error' }]);
}

/** A page of tasks as JSON text (an array of TTask): stored list entries with the caller's rights. */
export async function listTasksText(
  ctx: AppContext,
  caller: AuthUser,
  q: z.output<typeof ZTaskListQuery>,
): Promise<string> {
  const viewer = await loadViewer(ctx, caller);
  return listTaskPage(ctx, viewer, {
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
  });
}

/** A page of tasks (the MCP tool; the REST route sends {@link listTasksText} as it is). */
export async function listTasks(
  ctx: AppContext,
  caller: AuthUser,
  q: z.output<typeof ZTaskListQuery>,
): Promise<TTask[]> {
  return JSON.parse(await listTasksText(ctx, caller, q));
}

export async function urgentTasks(
  ctx: AppContext,
  caller: AuthUser,
  q: z.output<typeof ZUrgentTaskQuery>,
): Promise<TTask[]> {
  const viewer = await loadViewer(ctx, caller);
  const rows = await repo.urgentTasks(ctx.db, {
    userId: viewer.id,
    orgIds: viewer.orgIds,
    priorities: [DASHBOARD_URGENT_PRIORITY],
    closedStatuses: CLOSED_TASK_STATUSES,
    limit: q.limit,
  });
  return presentRows(ctx, viewer, rows);
}

export const getTask = present;

export async function createTask(
  ctx: AppContext,
  caller: AuthUser,
  body: z.output<typeof ZCreateTaskRequest>,
): Promise<TTask> {
  const viewer = await loadViewer(ctx, caller);
  const shares = body.shared_org_ids ?? [];
  assertShareable(viewer.levels, shares);
  const assignee = body.assigned_to_user_id
    ? await assertAssignable(ctx, viewer, caller, body.assigned_to_user_id)
    : null;
  if (body.goal_id) await assertLinkableGoal(ctx, viewer, body.goal_id);
  const now = nowIso();
  const id = randomUUID();
  const row = {
    id,
    title: body.title,
    description: body.description ?? null,
    priority: body.priority,
    status: body.status,
    due_date: body.due_date ?? null,
    notes: body.notes ?? null,
    assigned_to_user_id: body.assigned_to_user_id ?? null,
    goal_id: body.goal_id ?? null,
    created_by: caller.id,
    created_at: now,
    updated_at: now,
  };
  // Nothing is read back: every column was written here (all text, stored as given), the creator is
  // the caller and the assignee was read by the check above. On PostgreSQL that is a round trip less
  // per write (tasks-create-response.test.ts compares this answer with a fresh read).
  const created: repo.TaskRow = {
    ...row,
    creator_email: caller.email,
    creator_first_name: caller.first_name,
    creator_last_name: caller.last_name,
    assignee_email: assignee?.email ?? null,
    assignee_first_name: assignee?.first_name ?? null,
    assignee_last_name: assignee?.last_name ?? null,
  };
  const shared = [...new Set(shares)].sort();
  // The list entry is rendered from the same row, so the insert stays one statement when nothing is
  // shared (the common case); the shares join it in one transaction and render it again.
  const stored = { ...row, list_json: taskListJson(created, shared) };
  if (shares.length === 0) await repo.insertTask(ctx.db, stored);
  else
    await withTx(ctx.db, async (trx) => {
      await repo.insertTask(trx, stored);
      await repo.replaceShares(trx, id, shares, now);
    });
  return presentTask(created, shared, taskRights(created, shared, viewer));
}

export async function updateTask(
  ctx: AppContext,
  caller: AuthUser,
  id: string,
  body: z.output<typeof ZUpdateTaskRequest>,
  pre: Precondition = ANY_VERSION,
): Promise<TTask> {
  const { row, viewer, rights } = await load(ctx, caller, id);
  const { assigned_to_user_id: assignee, ...fields } = body;
  const set: Partial<TasksTable> = {};
  for (const [k, v] of Object.entries(fields)) {
    if (v !== undefined) (set as Record<string, unknown>)[k] = v;
  }
  const reassign = assignee !== undefined && assignee !== row.assigned_to_user_id;
  if ((Object.keys(set).length > 0 || !reassign) && !rights.canEdit) {
    throw forbidden('You cannot edit this task.');
  }
  if (set.goal_id !== undefined && set.goal_id === row.goal_id) delete set.goal_id;
  if (set.goal_id) await assertLinkableGoal(ctx, viewer, set.goal_id);
  if (reassign) {
    if (!rights.canAssign) throw forbidden('You cannot assign this task.');
    if (assignee) await assertAssignable(ctx, viewer, caller, assignee);
    set.assigned_to_user_id = assignee;
  }
  pre.check(row.updated_at);
  await repo.updateTask(ctx.db, id, { ...set, updated_at: nextVersion(row.updated_at) });
  return present(ctx, caller, id);
}

export async function assignTask(
  ctx: AppContext,
  caller: AuthUser,
  id: string,
  body: z.output<typeof ZAssignTaskRequest>,
  pre: Precondition = ANY_VERSION,
): Promise<TTask> {
  const { row, viewer, rights } = await load(ctx, caller, id);
  if (!rights.canAssign) throw forbidden('You cannot assign this task.');
  pre.check(row.updated_at);
  const assignee = body.assigned_to_user_id;
  if (assignee && assignee !== row.assigned_to_user_id) await assertAssignable(ctx, viewer, caller, assignee);
  await repo.updateTask(ctx.db, id, {
    assigned_to_user_id: assignee,
    updated_at: nextVersion(row.updated_at),
  });
  return present(ctx, caller, id);
}

export async function deleteTask(ctx: AppContext, caller: AuthUser, id: string): Promise<void> {
  const { rights } = await load(ctx, caller, id);
  if (!rights.canDelete) throw forbidden('Only the creator can delete this task.');
  await repo.deleteTask(ctx.db, id); // shares cascade
}

/**
 * Replaces the set of organizations the task is shared with. Sharing decides who sees the task, so
 * only its creator may change it; each id must be an organization the creator belongs to (an id that
 * is already shared may stay).
 */
export async function shareTask(
  ctx: AppContext,
  caller: AuthUser,
  id: string,
  body: z.output<typeof ZShareOrgsRequest>,
): Promise<TTask> {
  const { viewer, shared, rights } = await load(ctx, caller, id);
  if (!canShareTask(rights)) throw forbidden('Only the creator can change who this task is shared with.');
  assertShareable(viewer.levels, body.ids, shared);
  const now = nowIso();
  await withTx(ctx.db, async (trx) => {
    await repo.replaceShares(trx, id, body.ids, now);
    await repo.updateTask(trx, id, { updated_at: now });
  });
  return present(ctx, caller, id);
}

export async function listShares(ctx: AppContext, caller: AuthUser, id: string): Promise<TTaskShare[]> {
  await load(ctx, caller, id);
  return repo.sharedOrganizations(ctx.db, id);
}

/**
 * The viewer's open tasks (not Done or Cancelled) for the AI workspace snapshot: each visibility
 * branch of the task policy read in its dated and undated halves, at most `perBranch` rows each, without
 * repeats. `truncated` when a half was cut at its limit.
 */
export async function openTasksFor(
  ctx: AppContext,
  viewer: ViewerScope,
  perBranch: number,
): Promise<{ rows: repo.OpenTaskRow[]; truncated: boolean }> {
  const halves = taskVisibilityBranches(viewer).flatMap((branch) =>
    [true, false].map((dated) =>
      repo.openTasksOfBranch(ctx.db, branch, {
        closedStatuses: CLOSED_TASK_STATUSES,
        dated,
        limit: perBranch,
      }),
    ),
  );
  const results = await Promise.all(halves);
  const byId = new Map<string, repo.OpenTaskRow>();
  for (const r of results.flat()) byId.set(r.id, r);
  return { rows: [...byId.values()], truncated: results.some((r) => r.length >= perBranch) };
}

/**
 * The titles of the viewer's open tasks, at most `perBranch` per visibility branch, each branch on its
 * own index (task suggestions must not repeat an open task).
 */
export async function openTaskTitlesFor(
  ctx: AppContext,
  viewer: ViewerScope,
  perBranch: number,
): Promise<string[]> {
  const branches = taskVisibilityBranches(viewer).map((branch) =>
    repo.openTaskTitlesOfBranch(ctx.db, branch, { closedStatuses: CLOSED_TASK_STATUSES, limit: perBranch }),
  );
  return (await Promise.all(branches)).flat();
}

/**
 * The brief's "your tasks": the person's own open tasks (assigned to them, or created by them and
 * unassigned) that are overdue or High/Urgent; overdue first, then by due date. Every one is visible to
 * them (they are its assignee or creator).
 */
export async function attentionTasksOf(
  ctx: AppContext,
  userId: string,
  today: string,
  limit: number,
): Promise<repo.BriefTaskRow[]> {
  const rows = await repo.attentionTasksOf(ctx.db, {
    userId,
    today,
    priorities: ['High', 'Urgent'],
    closedStatuses: CLOSED_TASK_STATUSES,
    limit,
  });
  const overdue = (t: repo.BriefTaskRow) => (t.due_date !== null && t.due_date < today ? 0 : 1);
  return rows
    .sort(
      (a, b) =>
        overdue(a) - overdue(b) ||
        (a.due_date ?? '9999').localeCompare(b.due_date ?? '9999') ||
        a.id.localeCompare(b.id),
    )
    .slice(0, limit);
}

/**
 * Tasks linked to these goals that were marked done in [since, until) and that the viewer may see (the
 * task policy): the brief's "why it moved" evidence. A task's last change stands for when it was done.
 */
export async function doneTasksOfGoals(
  ctx: AppContext,
  viewer: Viewer,
  goalIds: readonly string[],
  period: { since: string; until: string },
  limit: number,
): Promise<{ id: string; title: string; goal_id: string }[]> {
  const rows = await repo.doneTasksOfGoals(ctx.db, {
    goalIds,
    doneStatus: COMPLETED_TASK_STATUS,
    since: period.since,
    until: period.until,
    limit: limit * 4,
  });
  const shares = await repo.sharesOf(
    ctx.db,
    rows.map((r) => r.id),
  );
  return rows
    .filter((r) => taskRights(r, shares.get(r.id) ?? [], viewer).visible)
    .slice(0, limit)
    .map((r) => ({ id: r.id, title: r.title, goal_id: r.goal_id as string }));
}

/**
 * The goal's open and recently done tasks (issue 20 §1): the goal must be visible to the caller (else
 * 404), and of its tasks only those the caller may see are listed (the task policy).
 */
export async function goalTasks(ctx: AppContext, caller: AuthUser, goalId: string): Promise<TGoalTasks> {
  await loadGoal(ctx, caller, goalId);
  const viewer = await loadViewer(ctx, caller);
  const doneSince = new Date(Date.now() - GOAL_RECENTLY_DONE_DAYS * 86_400_000).toISOString();
  const [open, done] = await Promise.all([
    repo.tasksOfGoal(ctx.db, goalId, viewer, {
      kind: 'open',
      closedStatuses: CLOSED_TASK_STATUSES,
      limit: GOAL_TASKS_LIMIT,
    }),
    repo.tasksOfGoal(ctx.db, goalId, viewer, {
      kind: 'done',
      doneStatus: COMPLETED_TASK_STATUS,
      doneSince,
      limit: GOAL_TASKS_LIMIT,
    }),
  ]);
  return { open: await presentRows(ctx, viewer, open), done: await presentRows(ctx, viewer, done) };
}

/** Citations of the tasks (of these ids) the viewer may see, by id; the others are left out. */
export async function taskCitations(
  ctx: AppContext,
  viewer: ViewerScope,
  ids: readonly string[],
): Promise<Map<string, TRecordCitation>> {
  const rows = await repo.visibleTaskTitles(ctx.db, viewer, ids);
  return new Map(
    rows.map((r) => [r.id, { type: 'task', id: r.id, title: r.title, url: citationUrl('task', r.id) }]),
  );
}
