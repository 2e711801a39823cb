import { PostgresAdapter, type SelectQueryBuilder, sql } from 'kysely';
import { type BranchPageParams, branchPageParams } from '../../db/branch-page.ts';
import { type Db, withTx } from '../../db/index.ts';
import { preparedQuery } from '../../db/prepared-query.ts';
import { lowerLike } from '../../db/search.ts';
import type { Database, TasksTable } from '../../db/types.ts';
import {
  type TaskVisibilityBranch,
  taskBranchPredicate,
  taskVisibilityBranches,
  visibleTasks,
} from './tasks.policy.ts';
import type { ViewerScope } from '../../platform/viewer.ts';
import { lockForRender } from '../../platform/list-entries.ts';
import { taskListJson } from './tasks.presenter.ts';

/** The task's columns (not its stored list entry, which is read only by the list). */
const TASK_COLUMNS = [
  'tasks.id',
  'tasks.title',
  'tasks.description',
  'tasks.priority',
  'tasks.status',
  'tasks.due_date',
  'tasks.notes',
  'tasks.assigned_to_user_id',
  'tasks.created_by',
  'tasks.created_at',
  'tasks.updated_at',
  'tasks.goal_id',
] as const;

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
    .select(TASK_COLUMNS)
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
  /** Read each task's shared organizations beside its list entry (for rights, see rightsNeedShares). */
  withShares?: boolean;
}

/**
 * The values of a list query (see {@link preparedQuery}): everything its SQL depends on is the
 * presence of a value, a boolean or a list's length.
 */
interface TaskPageParams extends BranchPageParams {
  status: string | null;
  /** The status hidden when neither a status filter nor include_completed is given. */
  hiddenStatus: string | null;
  priority: string | null;
  assignedTo: string | null;
  /** An assignee filter naming someone else: their tasks are checked against the caller's visibility. */
  assignedToOther: boolean;
  withShares: boolean;
}

function pageParams(db: Db, o: TaskListOptions): TaskPageParams {
  return {
    ...branchPageParams(db, o),
    status: o.status ?? null,
    hiddenStatus: o.status || o.includeCompleted ? null : o.completedStatus,
    priority: o.priority ?? null,
    assignedTo: o.assignedTo ?? null,
    assignedToOther: Boolean(o.assignedTo) && o.assignedTo !== o.userId,
    withShares: o.withShares !== false,
  };
}

/**
 * One visibility branch of the list: the ids and sort keys of the matching tasks, in list order.
 * `k0` is "no due date" (none last), `k1` the due date, `k2` the creation time (newest first). Each
 * branch reads its own index in order (tasks_creator_list_idx, tasks_assignee_list_idx,
 * task_shares_list_idx); the status/priority filters are checked in the index, search and assignee
 * read the task row.
 */
function ownBranch(
  db: Db,
  column: 'tasks.created_by' | 'tasks.assigned_to_user_id',
  value: string,
  p: TaskPageParams,
) {
  let q = db
    .selectFrom('tasks')
    .select([
      'tasks.id as id',
      sql<number>`tasks.due_date is null`.as('k0'),
      'tasks.due_date as k1',
      'tasks.created_at as k2',
    ])
    .where(column, '=', value);
  if (p.status) q = q.where('tasks.status', '=', p.status);
  if (p.hiddenStatus) q = q.where('tasks.status', '!=', p.hiddenStatus);
  if (p.priority) q = q.where('tasks.priority', '=', p.priority);
  if (p.assignedTo) q = q.where('tasks.assigned_to_user_id', '=', p.assignedTo);
  const pattern = p.pattern;
  if (pattern) {
    q = q.where((eb) => eb.or([lowerLike('tasks.title', pattern), lowerLike('tasks.description', pattern)]));
  }
  return q;
}

/**
 * The branch of the tasks shared with one organization, read from the copies on task_shares. (With an
 * assignee filter the list takes a single branch instead, see {@link taskPageQuery}.)
 */
function sharedBranch(db: Db, orgId: string, p: TaskPageParams) {
  let q = db
    .selectFrom('task_shares')
    .select([
      'task_shares.task_id as id',
      sql<number>`task_shares.task_due_date is null`.as('k0'),
      'task_shares.task_due_date as k1',
      sql<string>`task_shares.task_created_at`.as('k2'),
    ])
    .where('task_shares.organization_id', '=', orgId);
  if (p.status) q = q.where('task_shares.task_status', '=', p.status);
  if (p.hiddenStatus) q = q.where('task_shares.task_status', '!=', p.hiddenStatus);
  if (p.priority) q = q.where('task_shares.task_priority', '=', p.priority);
  const pattern = p.pattern;
  if (pattern) {
    // The task row is read by its key for each index entry, in the branch's order.
    q = q.where(({ exists, selectFrom }) =>
      exists(
        selectFrom('tasks')
          .select('tasks.id')
          .whereRef('tasks.id', '=', 'task_shares.task_id')
          .where((e) => e.or([lowerLike('tasks.title', pattern), lowerLike('tasks.description', pattern)])),
      ),
    );
  }
  return q;
}

interface PageKeys {
  id: string;
  k0: number;
  k1: string | null;
  k2: string;
}

/** A branch of the page: every branch selects these four columns (from tasks or task_shares' copies). */
type PageBranch = SelectQueryBuilder<Database, 'tasks', PageKeys>;

/**
 * The task policy's visibility branches (created by me, assigned to me, shared with my organizations),
 * the shared one split into a branch per organization so each reads task_shares_list_idx in order.
 */
function branchesOf(db: Db, p: TaskPageParams) {
  const viewer = { id: p.userId, orgIds: p.orgIds };
  if (!p.assignedTo) {
    return taskVisibilityBranches(viewer).flatMap((b): PageBranch[] =>
      b.via === 'task_shares'
        ? b.orgIds.map((org) => sharedBranch(db, org, p) as unknown as PageBranch)
        : [ownBranch(db, b.via, b.userId, p)],
    );
  }
  // One person's tasks: read them in order from the assignee index and keep the visible ones.
  return [
    ownBranch(db, 'tasks.assigned_to_user_id', p.assignedTo, p).$if(p.assignedToOther, (q) =>
      q.where(visibleTasks(viewer, 'row')),
    ),
  ];
}

/**
 * The ids and sort keys of one page. On SQLite the branches form one compound SELECT (UNION, which
 * also drops a task visible through several branches) ordered like the list: SQLite merges the
 * branches as each reads its index in order and stops once the page is full, with no sort. PostgreSQL
 * does not merge a UNION in order, so there each branch gives at most skip + limit rows in list order
 * (enough for any row of the page: a row's predecessors in the page order are also its predecessors in
 * its branch), then the union is deduplicated, sorted and cut.
 */
export function taskPageQuery(db: Db, p: TaskPageParams) {
  // Every branch selects the same four columns (from tasks or from task_shares' copies).
  const parts = branchesOf(db, p) as unknown as SelectQueryBuilder<Database, 'tasks', PageKeys>[];
  if (p.sqlite) {
    const union = parts.slice(1).reduce((all, b) => all.union(b), parts[0]);
    return union
      .orderBy('k0')
      .orderBy('k1')
      .orderBy('k2', 'desc')
      .orderBy('id')
      .limit(p.limit)
      .offset(p.skip);
  }
  const branches = parts.map((b, i) =>
    db
      .selectFrom(b.orderBy('k0').orderBy('k1').orderBy('k2', 'desc').orderBy('id').limit(p.n).as(`b${i}`))
      .selectAll(),
  );
  const union = branches.slice(1).reduce((all, b) => all.unionAll(b), branches[0]);
  return db
    .selectFrom(union.as('u'))
    .select(['u.id', 'u.k0', 'u.k1', 'u.k2'])
    .distinct()
    .orderBy('u.k0')
    .orderBy('u.k1')
    .orderBy('u.k2', 'desc')
    .orderBy('u.id')
    .offset(p.skip)
    .limit(p.limit);
}

/** Due date soonest first (no due date last), then newest created, then id: a stable order for pages. */
function pageWithTasks(db: Db, p: TaskPageParams) {
  return db
    .selectFrom(taskPageQuery(db, p).as('page'))
    .innerJoin('tasks', 'tasks.id', 'page.id')
    .innerJoin('users as creator', 'creator.id', 'tasks.created_by')
    .leftJoin('users as assignee', 'assignee.id', 'tasks.assigned_to_user_id')
    .select(TASK_COLUMNS)
    .select([
      'creator.email as creator_email',
      'creator.first_name as creator_first_name',
      'creator.last_name as creator_last_name',
      'assignee.email as assignee_email',
      'assignee.first_name as assignee_first_name',
      'assignee.last_name as assignee_last_name',
      sharedOrgList(db).as('shared_org_list'),
    ])
    .orderBy('page.k0')
    .orderBy('page.k1')
    .orderBy('page.k2', 'desc')
    .orderBy('page.id');
}

/**
 * A page as rows, built plainly for these options: the query-plan tests read it, and the list-entry
 * tests present its rows afresh to compare a page of stored entries with.
 */
export const listTasksQuery = (db: Db, o: TaskListOptions) => pageWithTasks(db, pageParams(db, o));

/**
 * The task's shared organization ids as one comma-separated text (task_shares primary key), so a page
 * needs no second query for them.
 */
function sharedOrgList(db: Db) {
  return db.getExecutor().adapter instanceof PostgresAdapter
    ? sql<
        string | null
      >`(select string_agg(s.organization_id, ',') from task_shares s where s.task_id = tasks.id)`
    : sql<
        string | null
      >`(select group_concat(s.organization_id, ',') from task_shares s where s.task_id = tasks.id)`;
}

/**
 * One page as stored list entries (tasks.list_json, NULL where the database forgot it) with what the
 * caller's rights are decided from: creator, assignee and shared organizations. No user is read and
 * nothing is presented per row: the entry was rendered when the task was written.
 */
function pageEntries(db: Db, p: TaskPageParams) {
  return db
    .selectFrom(taskPageQuery(db, p).as('page'))
    .innerJoin('tasks', 'tasks.id', 'page.id')
    .select([
      'tasks.id',
      'tasks.list_json',
      'tasks.created_by',
      'tasks.assigned_to_user_id',
      p.withShares ? sharedOrgList(db).as('shared_org_list') : sql<string | null>`null`.as('shared_org_list'),
    ])
    .orderBy('page.k0')
    .orderBy('page.k1')
    .orderBy('page.k2', 'desc')
    .orderBy('page.id');
}

const entryPage = preparedQuery(pageEntries, { offThread: true });

export interface TaskListEntry {
  id: string;
  list_json: string | null;
  created_by: string;
  assigned_to_user_id: string | null;
  shared_org_list: string | null;
}

/** A page of tasks as their stored list entries (see {@link pageEntries}). */
export function listTaskEntries(db: Db, o: TaskListOptions): Promise<TaskListEntry[]> {
  return entryPage(db, pageParams(db, o)) as Promise<TaskListEntry[]>;
}

/** These tasks with names, in no particular order (a list's entries the database forgot). */
export function findTasks(db: Db, ids: readonly string[]): Promise<TaskRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return selectTasks(db)
    .where('tasks.id', 'in', [...ids])
    .execute();
}

/** The ids of `shared_org_list`, sorted (the same order as {@link sharesOf}). */
export function sharedIdsOf(row: { shared_org_list: string | null }): string[] {
  return row.shared_org_list ? row.shared_org_list.split(',').sort() : [];
}

export interface UrgentOptions {
  userId: string;
  orgIds: readonly string[];
  priorities: readonly string[];
  closedStatuses: readonly string[];
  limit: number;
}

/** Open tasks of the given priorities, by due date (none last), then newest created. */
export function urgentTasksQuery(db: Db, o: UrgentOptions) {
  return selectTasks(db)
    .where(visibleTasks({ id: o.userId, orgIds: o.orgIds }))
    .where('tasks.priority', 'in', [...o.priorities])
    .where('tasks.status', 'not in', [...o.closedStatuses])
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
  // code-unit order, as sharedIdsOf (a PostgreSQL collation may order the ids differently)
  for (const ids of out.values()) ids.sort();
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

/** `row.list_json` is the task's list entry, rendered by the caller from what it wrote (taskListJson). */
/** Built and compiled once per shape (which columns are null): task creation is a hot write. */
const insertTaskQuery = preparedQuery((db, row: TasksTable & Record<string, unknown>) =>
  db.insertInto('tasks').values(row),
);

export async function insertTask(db: Db, row: TasksTable): Promise<void> {
  await insertTaskQuery(db, { ...row });
}

/** The task columns copied onto its share rows (the shared branch of the list sorts and filters by them). */
const COPIED: readonly (keyof TasksTable)[] = ['due_date', 'created_at', 'status', 'priority'];

/** Updates the task and renders its list entry again, in one transaction. */
export async function updateTask(db: Db, id: string, set: Partial<TasksTable>): Promise<void> {
  await withTx(db, async (trx) => {
    await trx.updateTable('tasks').set(set).where('id', '=', id).execute();
    if (COPIED.some((k) => set[k] !== undefined)) await syncShareCopies(trx, id);
    await renderListEntries(trx, [id]);
  });
}

/**
 * Renders the list entries of these tasks from their rows (tasks.list_json). Run it in the transaction
 * that changed them, or in one of its own (see lockForRender).
 */
export async function renderListEntries(db: Db, ids: readonly string[]): Promise<number> {
  const sorted = await lockForRender(db, 'tasks', ids);
  if (sorted.length === 0) return 0;
  const [rows, shares] = await Promise.all([findTasks(db, sorted), sharesOf(db, sorted)]);
  for (const row of rows) {
    await db
      .updateTable('tasks')
      .set({ list_json: taskListJson(row, shares.get(row.id) ?? []) })
      .where('id', '=', row.id)
      .execute();
  }
  return rows.length;
}

/** Up to `limit` tasks whose list entry the database forgot (tasks_list_json_missing_idx). */
export async function tasksWithoutListEntry(db: Db, limit: number): Promise<string[]> {
  const rows = await db
    .selectFrom('tasks')
    .select('id')
    .where('list_json', 'is', null)
    .limit(limit)
    .execute();
  return rows.map((r) => r.id);
}

/** Copies the task's sort and filter columns onto its share rows (in the writer's transaction). */
async function syncShareCopies(db: Db, taskId: string): Promise<void> {
  const col = (c: keyof TasksTable) =>
    sql<string | null>`(select t.${sql.ref(c)} from tasks t where t.id = task_shares.task_id)`;
  await db
    .updateTable('task_shares')
    .set({
      task_due_date: col('due_date'),
      task_created_at: col('created_at'),
      task_status: col('status'),
      task_priority: col('priority'),
    })
    .where('task_id', '=', taskId)
    .execute();
}

export async function deleteTask(db: Db, id: string): Promise<void> {
  await db.deleteFrom('tasks').where('id', '=', id).execute();
}

/** Replaces the task's shares and renders its list entry again (run inside a transaction). */
export async function replaceShares(db: Db, taskId: string, orgIds: readonly string[], now: string) {
  await db.deleteFrom('task_shares').where('task_id', '=', taskId).execute();
  if (orgIds.length) {
    await db
      .insertInto('task_shares')
      .values(orgIds.map((organization_id) => ({ task_id: taskId, organization_id, created_at: now })))
      .execute();
    await syncShareCopies(db, taskId);
  }
  await renderListEntries(db, [taskId]);
}

export interface OpenTaskRow {
  id: string;
  title: string;
  status: string;
  priority: string;
  due_date: string | null;
  assigned_to_user_id: string | null;
  created_by: string;
}

/**
 * The open tasks of one visibility branch, soonest due first: the dated half (by due date) or the
 * undated half (by id), at most `limit`. Halves are read separately because NULLs sort first on SQLite
 * and last on PostgreSQL, and each half stays a range on the (creator|assignee, due_date) index.
 */
export function openTasksOfBranch(
  db: Db,
  branch: TaskVisibilityBranch,
  o: { closedStatuses: readonly string[]; dated: boolean; limit: number },
): Promise<OpenTaskRow[]> {
  const q = db
    .selectFrom('tasks')
    .select([
      'tasks.id',
      'tasks.title',
      'tasks.status',
      'tasks.priority',
      'tasks.due_date',
      'tasks.assigned_to_user_id',
      'tasks.created_by',
    ])
    .where('tasks.status', 'not in', [...o.closedStatuses])
    .where(taskBranchPredicate(branch));
  return (
    o.dated
      ? q.where('tasks.due_date', 'is not', null).orderBy('tasks.due_date')
      : q.where('tasks.due_date', 'is', null).orderBy('tasks.id')
  )
    .limit(o.limit)
    .execute();
}

/** The titles of the open tasks of one visibility branch, at most `limit` (in no particular order). */
export async function openTaskTitlesOfBranch(
  db: Db,
  branch: TaskVisibilityBranch,
  o: { closedStatuses: readonly string[]; limit: number },
): Promise<string[]> {
  const rows = await db
    .selectFrom('tasks')
    .select('tasks.title')
    .where('tasks.status', 'not in', [...o.closedStatuses])
    .where(taskBranchPredicate(branch))
    .limit(o.limit)
    .execute();
  return rows.map((r) => r.title);
}

/** A task the brief names: what its line and citation need. */
export interface BriefTaskRow {
  id: string;
  title: string;
  priority: string;
  status: string;
  due_date: string | null;
}

/**
 * The person's open tasks (assigned to them, or created by them and unassigned) that are overdue or of
 * one of `priorities`: two ranges, of tasks_assignee_idx and tasks_created_by_idx, at most `limit` each.
 */
export async function attentionTasksOf(
  db: Db,
  o: {
    userId: string;
    today: string;
    priorities: readonly string[];
    closedStatuses: readonly string[];
    limit: number;
  },
): Promise<BriefTaskRow[]> {
  const pick = (by: 'assigned_to_user_id' | 'created_by') => {
    let q = db
      .selectFrom('tasks')
      .select(['id', 'title', 'priority', 'status', 'due_date'])
      .where(by, '=', o.userId)
      .where('status', 'not in', [...o.closedStatuses])
      .where((eb) => eb.or([eb('due_date', '<', o.today), eb('priority', 'in', [...o.priorities])]));
    if (by === 'created_by') q = q.where('assigned_to_user_id', 'is', null);
    return q.orderBy('due_date').orderBy('id').limit(o.limit).execute();
  };
  const [assigned, created] = await Promise.all([pick('assigned_to_user_id'), pick('created_by')]);
  return [...assigned, ...created];
}

/** Done tasks linked to these goals, changed in [since, until) (tasks_goal_idx), at most `limit`. */
export function doneTasksOfGoals(
  db: Db,
  o: { goalIds: readonly string[]; doneStatus: string; since: string; until: string; limit: number },
) {
  if (!o.goalIds.length) return Promise.resolve([]);
  return db
    .selectFrom('tasks')
    .select(['id', 'title', 'goal_id', 'created_by', 'assigned_to_user_id', 'updated_at'])
    .where('goal_id', 'in', [...o.goalIds])
    .where('status', '=', o.doneStatus)
    .where('updated_at', '>=', o.since)
    .where('updated_at', '<', o.until)
    .orderBy('updated_at')
    .orderBy('id')
    .limit(o.limit)
    .execute();
}

/**
 * The tasks linked to a goal that the viewer may see (tasks_goal_idx: goal_id, status): `open` ones
 * (status not closed) soonest due first, or `done` ones changed since `doneSince`, latest first.
 */
export function tasksOfGoal(
  db: Db,
  goalId: string,
  viewer: ViewerScope,
  o:
    | { kind: 'open'; closedStatuses: readonly string[]; limit: number }
    | { kind: 'done'; doneStatus: string; doneSince: string; limit: number },
): Promise<TaskRow[]> {
  const q = selectTasks(db).where('tasks.goal_id', '=', goalId).where(visibleTasks(viewer, 'row'));
  const picked =
    o.kind === 'open'
      ? q
          .where('tasks.status', 'not in', [...o.closedStatuses])
          .orderBy(sql`case when tasks.due_date is null then 1 else 0 end`)
          .orderBy('tasks.due_date')
          .orderBy('tasks.created_at', 'desc')
      : q
          .where('tasks.status', '=', o.doneStatus)
          .where('tasks.updated_at', '>=', o.doneSince)
          .orderBy('tasks.updated_at', 'desc');
  return picked.orderBy('tasks.id').limit(o.limit).execute();
}

/** Of these tasks, the ids and titles of those the viewer may see (tasks.policy). */
export function visibleTaskTitles(db: Db, viewer: ViewerScope, ids: readonly string[]) {
  if (ids.length === 0) return Promise.resolve([] as { id: string; title: string }[]);
  return db
    .selectFrom('tasks')
    .select(['tasks.id', 'tasks.title'])
    .where('tasks.id', 'in', [...ids])
    .where(visibleTasks(viewer, 'row'))
    .execute();
}
