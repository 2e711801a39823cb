import { z } from 'zod';
import { MAX_PAGE_SIZE, ZRefId, ZSkip } from './common.ts';
import { ZDateOnly, ZOptionalBody, ZOrgIds, ZQueryBool, ZSearch, ZUserRef, ZOrgRef } from './fields.ts';

export const TASK_STATUSES = [
  'To Do',
  'Pending',
  'In Progress',
  'Done',
  'Review',
  'Cancelled',
  'Bottleneck',
] as const;
export type TTaskStatus = (typeof TASK_STATUSES)[number];
/** The edit menu offers six statuses, without Pending (spec section 4); the API accepts all seven. */
export const TASK_EDIT_STATUSES: readonly TTaskStatus[] = TASK_STATUSES.filter((s) => s !== 'Pending');
export const DEFAULT_TASK_STATUS: TTaskStatus = 'To Do';
/** Hidden from the task list unless include_completed is true. */
export const COMPLETED_TASK_STATUS: TTaskStatus = 'Done';
/** Not shown among the dashboard's urgent tasks. */
export const CLOSED_TASK_STATUSES: readonly TTaskStatus[] = ['Done', 'Cancelled'];

export const TASK_PRIORITIES = ['Low', 'Medium', 'High', 'Urgent'] as const;
export type TTaskPriority = (typeof TASK_PRIORITIES)[number];
export const DEFAULT_TASK_PRIORITY: TTaskPriority = 'Medium';
/** The dashboard's "Urgent Tasks & Communications" shows 3. */
export const DASHBOARD_URGENT_TASKS = 3;
/** Spec §2: "tasks of High priority that are not Done" — High only, not Urgent (docs/decisions/). */
export const DASHBOARD_URGENT_PRIORITY: TTaskPriority = 'High';
/** Whether a task belongs among the dashboard's urgent tasks: the server's query and the card agree. */
export const isDashboardUrgentTask = (task: { priority: string; status: string }): boolean =>
  task.priority === DASHBOARD_URGENT_PRIORITY && !CLOSED_TASK_STATUSES.includes(task.status as TTaskStatus);
export const TASKS_PAGE_SIZE = 100;
export const TASK_TITLE_REQUIRED = 'Title is required';

/** "high", "HIGH" and "High" are all High; anything else is null. */
export function normalizeTaskPriority(value: string): TTaskPriority | null {
  const v = value.trim().toLowerCase();
  return TASK_PRIORITIES.find((p) => p.toLowerCase() === v) ?? null;
}

/** Priority as stored: canonical case; the lowercase spellings of the create form are accepted. */
export const ZTaskPriority = z
  .string({ message: 'Priority must be Low, Medium, High or Urgent' })
  .transform((s) => normalizeTaskPriority(s) ?? s)
  .pipe(z.enum(TASK_PRIORITIES, { message: 'Priority must be Low, Medium, High or Urgent' }));

export const ZTaskStatus = z.enum(TASK_STATUSES, {
  message: `Status must be one of ${TASK_STATUSES.join(', ')}`,
});

export const ZTask = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string().nullable(),
  priority: z.enum(TASK_PRIORITIES),
  status: ZTaskStatus,
  due_date: z.string().nullable(),
  notes: z.string().nullable(),
  assigned_to_user_id: z.string().nullable(),
  assigned_to_user: ZUserRef.nullable(),
  created_by: z.string(),
  created_by_user: ZUserRef.nullable(),
  shared_org_ids: z.array(z.string()),
  /** The strategic goal this task serves (issue 20 §1), or null. */
  goal_id: z.string().nullable(),
  /** Computed per caller: the creator may do all three; the assignee may edit; an admin/manager of a
   * shared organization may edit and assign; a ceo member of a shared organization may assign. */
  can_edit: z.boolean(),
  can_delete: z.boolean(),
  can_assign: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type TTask = z.infer<typeof ZTask>;

const ZTaskTitle = z.string({ message: TASK_TITLE_REQUIRED }).trim().min(1, TASK_TITLE_REQUIRED).max(500);

/** POST /api/tasks/. */
export const ZCreateTaskRequest = z.strictObject({
  title: ZTaskTitle,
  description: ZOptionalBody(20_000).optional(),
  priority: ZTaskPriority.default(DEFAULT_TASK_PRIORITY),
  status: ZTaskStatus.default(DEFAULT_TASK_STATUS),
  due_date: ZDateOnly.nullable().optional(),
  notes: ZOptionalBody(20_000).optional(),
  /** Same rule as PUT /{id}/assign: yourself, or a member of one of your organizations. */
  assigned_to_user_id: ZRefId.nullable().optional(),
  /** Organizations to share with at creation; only organizations you belong to. */
  shared_org_ids: ZOrgIds.optional(),
  /** A goal the caller may see (else 422), or null. */
  goal_id: ZRefId.nullable().optional(),
});
export type TCreateTaskRequest = z.input<typeof ZCreateTaskRequest>;

/**
 * PUT /api/tasks/{id}: the fields sent change, the others stay. A change of assigned_to_user_id
 * needs can_assign; everything else needs can_edit.
 */
export const ZUpdateTaskRequest = z.strictObject({
  title: ZTaskTitle.optional(),
  description: ZOptionalBody(20_000).optional(),
  priority: ZTaskPriority.optional(),
  status: ZTaskStatus.optional(),
  due_date: ZDateOnly.nullable().optional(),
  notes: ZOptionalBody(20_000).optional(),
  assigned_to_user_id: ZRefId.nullable().optional(),
  /** A goal the caller may see (else 422), or null to unlink; needs can_edit. */
  goal_id: ZRefId.nullable().optional(),
});
export type TUpdateTaskRequest = z.input<typeof ZUpdateTaskRequest>;

/** PUT /api/tasks/{id}/assign; null unassigns. */
export const ZAssignTaskRequest = z.strictObject({
  assigned_to_user_id: ZRefId.nullable(),
});
export type TAssignTaskRequest = z.input<typeof ZAssignTaskRequest>;

/** POST /api/tasks/{id}/share/orgs: the new, complete set of shared organizations. */
export const ZShareOrgsRequest = z.strictObject({ ids: ZOrgIds });
export type TShareOrgsRequest = z.input<typeof ZShareOrgsRequest>;

export const ZTaskListQuery = z.object({
  search: ZSearch,
  status: ZTaskStatus.optional(),
  priority: ZTaskPriority.optional(),
  /** A user id: tasks assigned to them, among the tasks the caller may see. */
  assignedTo: z.string().max(64).optional(),
  /** Done tasks are hidden unless true (an explicit status=Done filter shows them). */
  include_completed: ZQueryBool.default(false),
  skip: ZSkip,
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(TASKS_PAGE_SIZE),
});
export type TTaskListQuery = z.input<typeof ZTaskListQuery>;

/** GET /api/tasks/urgent: the dashboard's urgent tasks. */
export const ZUrgentTaskQuery = z.object({
  limit: z.coerce.number().int().min(1).max(50).default(DASHBOARD_URGENT_TASKS),
});

/** GET /api/tasks/{id}/shares: the organizations a task is shared with. */
export const ZTaskShare = ZOrgRef;
export type TTaskShare = z.infer<typeof ZTaskShare>;

/** GET /api/strategic-goals/{id}/tasks: the goal's tasks the caller may see. */
export const ZGoalTasks = z.object({
  /** Not Done or Cancelled, soonest due first (undated last). */
  open: z.array(ZTask),
  /** Done in the last GOAL_RECENTLY_DONE_DAYS days, latest first. */
  done: z.array(ZTask),
});
export type TGoalTasks = z.infer<typeof ZGoalTasks>;
/** "Recently done" on a goal: Done within this many days. */
export const GOAL_RECENTLY_DONE_DAYS = 14;
/** At most this many tasks in each half of a goal's task list. */
export const GOAL_TASKS_LIMIT = 50;
