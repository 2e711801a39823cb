import { tool } from 'ai';
import { z } from 'zod';
import type { AuthUser } from '../../platform/auth/authenticate.ts';
import type { AppContext } from '../../platform/context.ts';
import { loadWorkspaceSnapshot, type WorkspaceSnapshot } from '../context/workspace-snapshot.ts';
import type { SnapshotTask, WorkspaceSnapshotOutput } from './types.ts';

const LISTED = 10;

const task = (t: WorkspaceSnapshot['open_tasks'][number]): SnapshotTask => ({
  id: t.id,
  title: t.title,
  priority: t.priority,
  status: t.status,
  due_date: t.due_date,
});

/**
 * The prompt-sized view of a snapshot: open goals with KPI progress, forecasts and the goal's risk as
 * the goals API states them, overdue and open tasks.
 */
export function compactSnapshot(s: WorkspaceSnapshot): WorkspaceSnapshotOutput {
  return {
    today: s.today,
    goals: s.goals.slice(0, LISTED).map((g) => ({
      id: g.id,
      title: g.title,
      status: g.status,
      due_date: g.due_date,
      progress: g.progress,
      expected_progress: g.expected_progress,
      risk: g.risk,
      overdue: g.overdue,
      kpis: g.kpis.map((k) => ({
        name: k.title,
        current_value: k.current_value,
        target_value: k.target_value,
        unit: k.unit,
        progress: k.progress,
        forecast: k.forecast,
        lagging: k.lagging,
        last_checkin_date: k.last_checkin_date,
        stale: k.stale,
        previous: k.previous,
      })),
    })),
    overdue_tasks: s.overdue_tasks.slice(0, LISTED).map(task),
    open_tasks: s.open_tasks.slice(0, LISTED).map(task),
    open_task_count: s.counts.open_tasks,
    overdue_task_count: s.counts.overdue_tasks,
  };
}

/** The caller's goals with KPI progress and their open and overdue tasks (same visibility as the API). */
export const workspaceSnapshotTool = (ctx: AppContext, user: AuthUser) =>
  tool({
    description:
      "A summary of the user's workspace: open goals with KPI progress, forecasts and risk (why a goal is at risk), overdue " +
      'and open tasks. Use it for status, priorities and planning questions.',
    inputSchema: z.object({}),
    execute: async (): Promise<WorkspaceSnapshotOutput> =>
      compactSnapshot(await loadWorkspaceSnapshot(ctx, user.id)),
  });
