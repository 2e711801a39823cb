import { randomUUID } from 'node:crypto';
import {
  CLOSED_TASK_STATUSES,
  COMPLETED_TASK_STATUS,
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
import { managesAny, type Memberships, memberOfAny } from '../../platform/access.ts';
import type { AuthUser } from '../../platform/auth/authenticate.ts';
import type { AppContext } from '../../platform/context.ts';
import { badRequest, forbidden, notFound } from '../../platform/errors.ts';
import { membershipLevelsOf, organizationIdsOf } from '../organizations/organizations.service.ts';
import { getUserSummary } from '../users/users.service.ts';
import { presentTask, type TaskRights } from './tasks.presenter.ts';
import { ANY_VERSION, nextVersion, type Precondition } from '../../platform/concurrency.ts';
import * as repo from './tasks.repository.ts';

const URGENT_PRIORITIES = ['Urgent', 'High'];

/**
 * The per-caller flags (ARCHITECTURE.md section 3): the creator may do all three; the assignee may
 * edit; an admin or manager of an organization the task is shared with may edit and assign; a ceo who
 * is a member of an organization the task is shared with may assign. Visible to the creator, the
 * assignee and the members of the shared organizations.
 */
export function taskRights(
  task: { created_by: string; assigned_to_user_id: string | null },
  sharedOrgIds: readonly string[],
  caller: AuthUser,
  levels: Memberships,
): TaskRights {
  const creator = task.created_by === caller.id;
  const assignee = task.assigned_to_user_id === caller.id;
  const member = memberOfAny(levels, sharedOrgIds);
  const manager = managesAny(levels, sharedOrgIds);
  const ceo = caller.user_level === 'ceo' && member;
  return {
    visible: creator || assignee || member,
    canEdit: creator || assignee || manager,
    canDelete: creator,
    canAssign: creator || manager || ceo,
  };
}

async function load(ctx: AppContext, caller: AuthUser, id: string) {
  const row = await repo.findTask(ctx.db, id);
  if (!row) throw notFound('Task not found');
  const levels = await membershipLevelsOf(ctx, caller.id);
  const shared = (await repo.sharesOf(ctx.db, [id])).get(id) ?? [];
  const rights = taskRights(row, shared, caller, levels);
  if (!rights.visible) throw notFound('Task not found');
  return { row, levels, shared, rights };
}

async function present(ctx: AppContext, caller: AuthUser, id: string): Promise<TTask> {
  const { row, shared, rights } = await load(ctx, caller, id);
  return presentTask(row, shared, rights);
}

async function presentRows(ctx: AppContext, caller: AuthUser, levels: Memberships, rows: repo.TaskRow[]) {
  const shares = await repo.sharesOf(
    ctx.db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => {
    const shared = shares.get(r.id) ?? [];
    return presentTask(r, shared, taskRights(r, shared, caller, levels));
  });
}

/**
 * Who can be assigned: the caller, or an approved (not waitlisted) user who shares an organization
 * with the caller. Anyone else is refused with 400.
 */
async function assertAssignable(ctx: AppContext, caller: AuthUser, levels: Memberships, userId: string) {
  if (userId === caller.id) return;
  const message = 'The assignee must be you or a member of one of your organizations.';
  const target = await getUserSummary(ctx, userId);
  if (!target || target.user_level === 'waitlisted') throw badRequest(message);
  const theirs = await organizationIdsOf(ctx, userId);
  if (!memberOfAny(levels, theirs)) throw badRequest(message);
}

/** Share targets must be the caller's organizations (ids already shared may stay). */
function assertShareable(levels: Memberships, ids: readonly string[], alreadyShared: readonly string[] = []) {
  for (const id of ids) {
    if (!levels.has(id) && !alreadyShared.includes(id)) {
      throw forbidden('You can only share with organizations you belong to.');
    }
  }
}

export async function listTasks(
  ctx: AppContext,
  caller: AuthUser,
  q: z.output<typeof ZTaskListQuery>,
): Promise<TTask[]> {
  const levels = await membershipLevelsOf(ctx, caller.id);
  const rows = await repo.listTasks(ctx.db, {
    userId: caller.id,
    orgIds: [...levels.keys()],
    search: q.search,
    status: q.status,
    priority: q.priority,
    assignedTo: q.assignedTo,
    includeCompleted: q.include_completed,
    completedStatus: COMPLETED_TASK_STATUS,
    skip: q.skip,
    limit: q.limit,
  });
  return rows.map((r) => {
    const shared = repo.sharedIdsOf(r);
    return presentTask(r, shared, taskRights(r, shared, caller, levels));
  });
}

export async function urgentTasks(
  ctx: AppContext,
  caller: AuthUser,
  q: z.output<typeof ZUrgentTaskQuery>,
): Promise<TTask[]> {
  const levels = await membershipLevelsOf(ctx, caller.id);
  const rows = await repo.urgentTasks(ctx.db, {
    userId: caller.id,
    orgIds: [...levels.keys()],
    priorities: URGENT_PRIORITIES,
    closedStatuses: CLOSED_TASK_STATUSES,
    limit: q.limit,
  });
  return presentRows(ctx, caller, levels, rows);
}

export const getTask = present;

export async function createTask(
  ctx: AppContext,
  caller: AuthUser,
  body: z.output<typeof ZCreateTaskRequest>,
): Promise<TTask> {
  const levels = await membershipLevelsOf(ctx, caller.id);
  const shares = body.shared_org_ids ?? [];
  assertShareable(levels, shares);
  if (body.assigned_to_user_id) await assertAssignable(ctx, caller, levels, body.assigned_to_user_id);
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
    created_by: caller.id,
    created_at: now,
    updated_at: now,
  };
  // One statement when nothing is shared (the common case); the shares join it in one transaction.
  if (shares.length === 0) await repo.insertTask(ctx.db, row);
  else
    await withTx(ctx.db, async (trx) => {
      await repo.insertTask(trx, row);
      await repo.replaceShares(trx, id, shares, now);
    });
  // The caller's memberships and the shares are known: only the row with its joined names is read.
  const created = await repo.findTask(ctx.db, id);
  if (!created) throw notFound('Task not found');
  const shared = [...new Set(shares)].sort();
  return presentTask(created, shared, taskRights(created, shared, caller, levels));
}

export async function updateTask(
  ctx: AppContext,
  caller: AuthUser,
  id: string,
  body: z.output<typeof ZUpdateTaskRequest>,
  pre: Precondition = ANY_VERSION,
): Promise<TTask> {
  const { row, levels, rights } = await load(ctx, caller, id);
  const { assigned_to_user_id: assignee, ...fields } = body;
  const set: Partial<TasksTable> = {};
  for (const [k, v] of Object.entries(fields)) {
    if (v !== undefined) (set as Record<string, unknown>)[k] = v;
  }
  const reassign = assignee !== undefined && assignee !== row.assigned_to_user_id;
  if ((Object.keys(set).length > 0 || !reassign) && !rights.canEdit) {
    throw forbidden('You cannot edit this task.');
  }
  if (reassign) {
    if (!rights.canAssign) throw forbidden('You cannot assign this task.');
    if (assignee) await assertAssignable(ctx, caller, levels, assignee);
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
  const { row, levels, rights } = await load(ctx, caller, id);
  if (!rights.canAssign) throw forbidden('You cannot assign this task.');
  pre.check(row.updated_at);
  const assignee = body.assigned_to_user_id;
  if (assignee && assignee !== row.assigned_to_user_id) await assertAssignable(ctx, caller, levels, assignee);
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
  const { levels, shared, rights } = await load(ctx, caller, id);
  if (!rights.canDelete) throw forbidden('Only the creator can change who this task is shared with.');
  assertShareable(levels, body.ids, shared);
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
