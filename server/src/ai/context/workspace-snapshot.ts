import { isKpiLagging, type TGoal } from '@cc/contract';
import { openGoalsFor } from '../../modules/goals/goals.service.ts';
import { latestNotesOf } from '../../modules/journals/journals.service.ts';
import { openTasksFor } from '../../modules/tasks/tasks.service.ts';
import { getUserSummary } from '../../modules/users/users.service.ts';
import type { AppContext } from '../../platform/context.ts';
import { loadViewer } from '../../platform/viewer.ts';

/**
 * A bounded, read-only picture of what one user may see, for prompts, offline handlers and tools.
 * Visibility follows the REST API: goals are the user's own and their organizations'; tasks are
 * created by, assigned to or shared with the user's organizations; notes are private (own only).
 * Every item carries `type`, `id` and `title` so an answer can cite where a fact came from.
 * The goals, tasks and notes come from their modules (each query has a LIMIT and an index); what the
 * user may see is decided by those modules' policies (goals.policy.ts, tasks.policy.ts, journals.policy.ts).
 */

export const SNAPSHOT_LIMITS = {
  /** per visibility branch (own, each batch of organizations) */
  goals: 40,
  kpisPerGoal: 20,
  /** per visibility branch (created, assigned, shared) and per dated/undated half */
  tasks: 40,
  notes: 10,
  /** lengths of the lists in the snapshot itself */
  listed: 25,
} as const;

const DAY_MS = 86_400_000;

export interface SnapshotKpi {
  type: 'kpi';
  id: string;
  title: string;
  goal_id: string;
  goal_title: string;
  /** the goal's owner and organization (who would own a follow-up task, where to share it) */
  goal_owner_user_id: string;
  organization_id: string | null;
  current_value: number;
  target_value: number | null;
  unit: string | null;
  direction: string;
  /** The goals API's figures (contract goal-numbers.ts): kpiProgress, rounded. */
  progress: number;
  /** the goal's expected progress today */
  expected_progress: number;
  forecast: TGoal['kpis'][number]['forecast'];
  /** isKpiLagging: a KPI of an at-risk goal below the line or forecast to miss its target */
  lagging: boolean;
  /** the goals API's last check-in date and staleness: a metric answer states its value's date */
  last_checkin_date: string | null;
  stale: boolean;
  /** the check-in before the latest, for the trend a metric answer states (null with fewer than two) */
  previous: { date: string; value: number } | null;
}

export interface SnapshotGoal {
  type: 'goal';
  id: string;
  title: string;
  description: string | null;
  status: string;
  due_date: string;
  organization_id: string | null;
  owner_user_id: string;
  start_date: string;
  /** The goals API's figures (contract goal-numbers.ts): goalProgress, expectedProgress, goalRisk. */
  progress: number;
  expected_progress: number;
  risk: TGoal['risk'];
  overdue: boolean;
  days_overdue: number;
  own: boolean;
  kpis: SnapshotKpi[];
}

export interface SnapshotTask {
  type: 'task';
  id: string;
  title: string;
  status: string;
  priority: string;
  due_date: string | null;
  assigned_to_user_id: string | null;
  created_by: string;
  overdue: boolean;
  unassigned: boolean;
}

export interface SnapshotNote {
  type: 'note';
  id: string;
  /** the note's first line, trimmed */
  title: string;
  entry_date: string;
}

export interface WorkspaceSnapshot {
  user: { id: string; name: string; email: string; user_level: string };
  /** YYYY-MM-DD (UTC) */
  today: string;
  generated_at: string;
  organization_ids: string[];
  /** open goals (not done), soonest due first */
  goals: SnapshotGoal[];
  /** open goals whose `risk` says at risk, soonest due first (the Brief names the same ones) */
  at_risk_goals: SnapshotGoal[];
  /** KPIs of at-risk goals below the line or forecast to miss (isKpiLagging), the largest gap first */
  lagging_kpis: SnapshotKpi[];
  /** open goals past their due date, most overdue first */
  overdue_goals: SnapshotGoal[];
  /** open tasks (not Done or Cancelled), soonest due first, undated last */
  open_tasks: SnapshotTask[];
  overdue_tasks: SnapshotTask[];
  unassigned_tasks: SnapshotTask[];
  /** the user's own latest notes (titles and dates only) */
  notes: SnapshotNote[];
  counts: {
    goals: number;
    at_risk_goals: number;
    lagging_kpis: number;
    overdue_goals: number;
    open_tasks: number;
    overdue_tasks: number;
    unassigned_tasks: number;
    notes: number;
  };
  /** true when a bounded query may have left items out */
  truncated: boolean;
}

function noteTitle(content: string): string {
  const line =
    content
      .split('\n')
      .map((l) => l.replace(/^[#>*\-\s]+/, '').trim())
      .find((l) => l !== '') ?? '';
  return line.length > 80 ? `${line.slice(0, 79)}…` : line || '(empty note)';
}

function displayName(u: { first_name: string | null; last_name: string | null; email: string }) {
  return [u.first_name, u.last_name].filter(Boolean).join(' ') || u.email;
}

/** The snapshot of what `userId` may see right now. Throws nothing for an unknown user: empty lists. */
export async function loadWorkspaceSnapshot(
  ctx: AppContext,
  userId: string,
  now: Date = new Date(),
): Promise<WorkspaceSnapshot> {
  const today = now.toISOString().slice(0, 10);
  // Every read goes through the domain modules, whose policies decide what the user may see.
  const [user, viewer] = await Promise.all([getUserSummary(ctx, userId), loadViewer(ctx, { id: userId })]);
  const orgIds = [...viewer.orgIds];

  const [goalRes, taskRes, noteRows] = await Promise.all([
    openGoalsFor(ctx, viewer, {
      perBranch: SNAPSHOT_LIMITS.goals,
      kpisPerGoal: SNAPSHOT_LIMITS.kpisPerGoal,
      today,
    }),
    openTasksFor(ctx, viewer, SNAPSHOT_LIMITS.tasks),
    latestNotesOf(ctx, userId, SNAPSHOT_LIMITS.notes),
  ]);

  // Every figure comes from the goals module as the API presents it: nothing is computed here.
  const goals: SnapshotGoal[] = goalRes.goals.map((g) => {
    const kpis: SnapshotKpi[] = g.kpis.map((k) => ({
      type: 'kpi',
      id: k.id,
      title: k.name,
      goal_id: g.id,
      goal_title: g.title,
      goal_owner_user_id: g.user_id,
      organization_id: g.organization_id,
      current_value: k.current_value,
      target_value: k.target_value,
      unit: k.unit,
      direction: k.direction,
      progress: k.progress,
      expected_progress: g.expected_progress,
      forecast: k.forecast,
      lagging: isKpiLagging(g, k),
      last_checkin_date: k.last_checkin_date,
      stale: k.stale,
      previous: k.trend.length >= 2 ? k.trend[k.trend.length - 2] : null,
    }));
    const overdue = g.due_date < today;
    return {
      type: 'goal',
      id: g.id,
      title: g.title,
      description: g.description,
      status: g.status,
      due_date: g.due_date,
      organization_id: g.organization_id,
      owner_user_id: g.user_id,
      start_date: g.start_date,
      progress: g.progress,
      expected_progress: g.expected_progress,
      risk: g.risk,
      overdue,
      days_overdue: overdue ? Math.floor((Date.parse(today) - Date.parse(g.due_date)) / DAY_MS) : 0,
      own: g.user_id === userId,
      kpis,
    };
  });
  const atRisk = goals.filter((g) => g.risk.at_risk);

  const lagging = goals
    .flatMap((g) => g.kpis.filter((k) => k.lagging))
    .sort(
      (a, b) =>
        b.expected_progress - b.progress - (a.expected_progress - a.progress) || a.id.localeCompare(b.id),
    );
  const overdueGoals = goals
    .filter((g) => g.overdue)
    .sort((a, b) => a.due_date.localeCompare(b.due_date) || a.id.localeCompare(b.id));

  const tasks: SnapshotTask[] = taskRes.rows
    .map((t) => ({
      type: 'task' as const,
      ...t,
      overdue: t.due_date !== null && t.due_date < today,
      unassigned: t.assigned_to_user_id === null,
    }))
    .sort(
      (a, b) =>
        (a.due_date === null ? 1 : 0) - (b.due_date === null ? 1 : 0) ||
        (a.due_date ?? '').localeCompare(b.due_date ?? '') ||
        a.id.localeCompare(b.id),
    );
  const overdueTasks = tasks.filter((t) => t.overdue);
  const unassigned = tasks.filter((t) => t.unassigned);
  const notes: SnapshotNote[] = noteRows.map((n) => ({
    type: 'note',
    id: n.id,
    title: noteTitle(n.content),
    entry_date: n.entry_date,
  }));

  const L = SNAPSHOT_LIMITS.listed;
  return {
    user: user
      ? { id: user.id, name: displayName(user), email: user.email, user_level: user.user_level }
      : { id: userId, name: 'Unknown user', email: '', user_level: 'unknown' },
    today,
    generated_at: now.toISOString(),
    organization_ids: orgIds,
    goals: goals.slice(0, L),
    at_risk_goals: atRisk.slice(0, L),
    lagging_kpis: lagging.slice(0, L),
    overdue_goals: overdueGoals.slice(0, L),
    open_tasks: tasks.slice(0, L),
    overdue_tasks: overdueTasks.slice(0, L),
    unassigned_tasks: unassigned.slice(0, L),
    notes,
    counts: {
      goals: goals.length,
      at_risk_goals: atRisk.length,
      lagging_kpis: lagging.length,
      overdue_goals: overdueGoals.length,
      open_tasks: tasks.length,
      overdue_tasks: overdueTasks.length,
      unassigned_tasks: unassigned.length,
      notes: notes.length,
    },
    truncated: goalRes.truncated || taskRes.truncated || goals.length > L || tasks.length > L,
  };
}
