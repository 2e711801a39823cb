import { type ExpressionBuilder, sql } from 'kysely';
import type { Db } from '../../db/index.ts';
import { containsPattern, lowerLike } from '../../db/search.ts';
import type { Database, TasksTable } from '../../db/types.ts';

/**
 * Tasks with the names and e-mails of their assignee and creator. The users table is read here,
 * read-only, because it is a pure join for presentation (one query per page instead of one call per
 * task into the users service).
 */
function selectTasks(db: Db) {
  return db
    .selectFrom('tasks')
    .innerJoin('users as creator', 'creator.id', 'tasks.created_by')
    .leftJoin('users as assignee', 'assignee.id', 'tasks.assigned_to_user_id')
    .selectAll('tasks')
    .select([
      'creator.email as creator_email',
      'creator.first_name as creator_first_name',
      'creator.last_name as creator_last_name',
      'assignee.email as assignee_email',
      'assignee.first_name as assignee_first_name',
      'assignee.last_name as assignee_last_name',
    ]);
}

export type TaskRow = NonNullable<Awaited<ReturnType<typeof findTask>>>;

type TasksEb = ExpressionBuilder<
  Database & { creator: Database['users']; assignee: Database['users'] },
  'tasks'
>;

/**
 * Visible: created by or assigned to the caller, or shared with one of their organizations. Each
 * branch has its index (tasks_created_by_idx, tasks_assignee_idx, task_shares_org_idx + primary key).
 */
function visibleTo(eb: TasksEb, userId: string, orgIds: readonly string[]) {
  const branches = [eb('tasks.created_by', '=', userId), eb('tasks.assigned_to_user_id', '=', userId)];
  if (orgIds.length) {
    branches.push(
      eb(
        'tasks.id',
        'in',
        eb
          .selectFrom('task_shares')
          .select('task_shares.task_id')
          .where('task_shares.organization_id', 'in', [...orgIds]),
      ),
    );
  }
  return eb.or(branches);
}

export interface TaskListOptions {
  userId: string;
  orgIds: readonly string[];
  search?: string;
  status?: string;
  priority?: string;
  assignedTo?: string;
  includeCompleted: boolean;
  completedStatus: string;
  skip: number;
  limit: number;
}

/** Due date soonest first (no due date last), then newest created, then id: a stable order for pages. */
export function listTasksQuery(db: Db, o: TaskListOptions) {
  let q = selectTasks(db).where((eb) => visibleTo(eb, o.userId, o.orgIds));
  if (o.status) q = q.where('tasks.status', '=', o.status);
  else if (!o.includeCompleted) q = q.where('tasks.status', '!=', o.completedStatus);
  if (o.priority) q = q.where('tasks.priority', '=', o.priority);
  if (o.assignedTo) q = q.where('tasks.assigned_to_user_id', '=', o.assignedTo);
  const pattern = containsPattern(o.search);
  if (pattern) {
    q = q.where((eb) => eb.or([lowerLike('tasks.title', pattern), lowerLike('tasks.description', pattern)]));
  }
  return q
    .orderBy(sql`tasks.due_date is null`)
    .orderBy('tasks.due_date')
    .orderBy('tasks.created_at', 'desc')
    .orderBy('tasks.id')
    .offset(o.skip)
    .limit(o.limit);
}

export function listTasks(db: Db, o: TaskListOptions) {
  return listTasksQuery(db, o).execute();
}

export interface UrgentOptions {
  userId: string;
  orgIds: readonly string[];
  priorities: readonly string[];
  closedStatuses: readonly string[];
  limit: number;
}

/** Open Urgent and High tasks: Urgent first, then due date (none last), then newest created. */
export function urgentTasksQuery(db: Db, o: UrgentOptions) {
  return selectTasks(db)
    .where((eb) => visibleTo(eb, o.userId, o.orgIds))
    .where('tasks.priority', 'in', [...o.priorities])
    .where('tasks.status', 'not in', [...o.closedStatuses])
    .orderBy(sql`case tasks.priority when 'Urgent' then 0 else 1 end`)
    .orderBy(sql`tasks.due_date is null`)
    .orderBy('tasks.due_date')
    .orderBy('tasks.created_at', 'desc')
    .orderBy('tasks.id')
    .limit(o.limit);
}

export function urgentTasks(db: Db, o: UrgentOptions) {
  return urgentTasksQuery(db, o).execute();
}

export function findTask(db: Db, id: string) {
  return selectTasks(db).where('tasks.id', '=', id).executeTakeFirst();
}

/** Share rows of these tasks (task_shares primary key: task_id, organization_id). */
export async function sharesOf(db: Db, taskIds: readonly string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>(taskIds.map((id) => [id, []]));
  if (taskIds.length === 0) return out;
  const rows = await db
    .selectFrom('task_shares')
    .select(['task_id', 'organization_id'])
    .where('task_id', 'in', [...taskIds])
    .orderBy('task_id')
    .orderBy('organization_id')
    .execute();
  for (const r of rows) out.get(r.task_id)?.push(r.organization_id);
  return out;
}

/** The organizations a task is shared with, by name (a read-only join for presentation). */
export function sharedOrganizations(db: Db, taskId: string) {
  return db
    .selectFrom('task_shares')
    .innerJoin('organizations', 'organizations.id', 'task_shares.organization_id')
    .select(['organizations.id', 'organizations.name'])
    .where('task_shares.task_id', '=', taskId)
    .orderBy('organizations.name')
    .orderBy('organizations.id')
    .execute();
}

export async function insertTask(db: Db, row: TasksTable): Promise<void> {
  await db.insertInto('tasks').values(row).execute();
}

export async function updateTask(db: Db, id: string, set: Partial<TasksTable>): Promise<void> {
  await db.updateTable('tasks').set(set).where('id', '=', id).execute();
}

export async function deleteTask(db: Db, id: string): Promise<void> {
  await db.deleteFrom('tasks').where('id', '=', id).execute();
}

/** Replaces the task's shares (run inside a transaction). */
export async function replaceShares(db: Db, taskId: string, orgIds: readonly string[], now: string) {
  await db.deleteFrom('task_shares').where('task_id', '=', taskId).execute();
  if (orgIds.length) {
    await db
      .insertInto('task_shares')
      .values(orgIds.map((organization_id) => ({ task_id: taskId, organization_id, created_at: now })))
      .execute();
  }
}
