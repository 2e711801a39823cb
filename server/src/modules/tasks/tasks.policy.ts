import { type Expression, expressionBuilder, type SqlBool } from 'kysely';
import type { Database } from '../../db/types.ts';
import { managesAny, memberOfAny } from '../../platform/access.ts';
import type { Viewer, ViewerScope } from '../../platform/viewer.ts';

/**
 * Who may see and do what with a task (ARCHITECTURE.md section 3): the one home of these rules. The
 * REST service, the list and urgent queries, the internal search and the AI workspace snapshot all
 * read them from here.
 *
 * Visible to its creator, its assignee and the members of the organizations it is shared with.
 */

export interface TaskRights {
  visible: boolean;
  canEdit: boolean;
  canDelete: boolean;
  canAssign: boolean;
}

/**
 * The creator may do all three; the assignee may edit; an admin or manager of an organization the
 * task is shared with may edit and assign; a ceo who is a member of such an organization may assign.
 */
export function taskRights(
  task: { created_by: string; assigned_to_user_id: string | null },
  sharedOrgIds: readonly string[],
  viewer: Viewer,
): TaskRights {
  const creator = task.created_by === viewer.id;
  const assignee = task.assigned_to_user_id === viewer.id;
  const member = memberOfAny(viewer.levels, sharedOrgIds);
  const manager = managesAny(viewer.levels, sharedOrgIds);
  const ceo = viewer.userLevel === 'ceo' && member;
  return {
    visible: creator || assignee || member,
    canEdit: creator || assignee || manager,
    canDelete: creator,
    canAssign: creator || manager || ceo,
  };
}

/**
 * Whether {@link taskRights} can depend on the task's shares for this viewer: only through managing a
 * shared organization or being a ceo member of one. For anyone else a list needs no share rows to
 * decide rights (membership alone only makes the task visible, which the list's query already says).
 */
export function rightsNeedShares(viewer: Viewer): boolean {
  return viewer.userLevel === 'ceo' || managesAny(viewer.levels, viewer.orgIds);
}

/** Only the creator decides who a task is shared with (sharing decides who sees it). */
export const canShareTask = (rights: TaskRights) => rights.canDelete;

/**
 * The ways a task becomes visible, each one a branch served by its own index: created by the viewer
 * (tasks_created_by_idx), assigned to them (tasks_assignee_idx), shared with their organizations
 * (task_shares_org_idx). Lists that read each branch in index order build their query from these.
 */
export type TaskVisibilityBranch =
  | { via: 'tasks.created_by' | 'tasks.assigned_to_user_id'; userId: string }
  | { via: 'task_shares'; orgIds: readonly string[] };

export function taskVisibilityBranches(viewer: ViewerScope): TaskVisibilityBranch[] {
  const branches: TaskVisibilityBranch[] = [
    { via: 'tasks.created_by', userId: viewer.id },
    { via: 'tasks.assigned_to_user_id', userId: viewer.id },
  ];
  if (viewer.orgIds.length) branches.push({ via: 'task_shares', orgIds: viewer.orgIds });
  return branches;
}

const tasksEb = () => expressionBuilder<Database, 'tasks'>();

/**
 * How a predicate is used, which decides its SQL form (the rule is the same): `lookup` finds the
 * visible tasks (a query that reads tasks by visibility: `tasks.id in (…shared ids…)`, an index range
 * per branch); `row` checks tasks already read by another index or key (a correlated `exists` on the
 * task_shares primary key, one probe per row).
 */
export type PredicateUse = 'lookup' | 'row';

/** `tasks.id` is shared with one of these organizations. */
function sharedWithAny(orgIds: readonly string[], use: PredicateUse): Expression<SqlBool> {
  const eb = tasksEb();
  const shares = eb
    .selectFrom('task_shares')
    .select('task_shares.task_id')
    .where('task_shares.organization_id', 'in', [...orgIds]);
  return use === 'lookup'
    ? eb('tasks.id', 'in', shares)
    : eb.exists(shares.whereRef('task_shares.task_id', '=', 'tasks.id'));
}

/** The predicate over `tasks` of one visibility branch. */
export function taskBranchPredicate(
  b: TaskVisibilityBranch,
  use: PredicateUse = 'lookup',
): Expression<SqlBool> {
  return b.via === 'task_shares' ? sharedWithAny(b.orgIds, use) : tasksEb()(b.via, '=', b.userId);
}

/** The predicate over `tasks` that keeps only the tasks the viewer may see. */
export function visibleTasks(viewer: ViewerScope, use: PredicateUse = 'lookup'): Expression<SqlBool> {
  return tasksEb().or(taskVisibilityBranches(viewer).map((b) => taskBranchPredicate(b, use)));
}

/** The internal search's rule: the task whose id is `taskId` is one the viewer may see. */
export function taskSearchVisibility(viewer: ViewerScope, taskId: Expression<string>): Expression<SqlBool> {
  const eb = expressionBuilder<Database, never>();
  return eb.exists(
    eb
      .selectFrom('tasks')
      .select('tasks.id')
      .where('tasks.id', '=', taskId)
      .where(visibleTasks(viewer, 'row')),
  );
}
