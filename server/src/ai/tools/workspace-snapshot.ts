import { tool } from 'ai';
import { z } from 'zod';
import type { TInboxItem } from '@cc/contract';
import { pendingItemsOf } from '../../modules/inbox/inbox.service.ts';
import type { AuthUser } from '../../platform/auth/authenticate.ts';
import type { AppContext } from '../../platform/context.ts';
import { loadWorkspaceSnapshot, type WorkspaceSnapshot } from '../context/workspace-snapshot.ts';
import { plainText } from '../offline/prose.ts';
import type { SnapshotTask, WorkspaceSnapshotOutput } from './types.ts';

const LISTED = 10;
/** Pending inbox items the snapshot names: the oldest few are what "what should I do" acts on. */
const WAITING_LISTED = 3;

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
export function compactSnapshot(
  s: WorkspaceSnapshot,
  waiting: readonly TInboxItem[] = [],
): WorkspaceSnapshotOutput {
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
    waiting: waiting.map((i) => ({ title: plainText(i.title), since: i.created_at.slice(0, 10) })),
  };
}

/** The caller's goals with KPI progress and their open and overdue tasks (same visibility as the API). */
export const workspaceSnapshotTool = (ctx: AppContext, user: AuthUser) =>
  tool({
    description:
      "A summary of the user's workspace: open goals with KPI progress, forecasts and risk (why a goal is at risk), overdue " +
      'and open tasks. Use it for status, priorities and planning questions.',
    inputSchema: z.object({}),
    execute: async (): Promise<WorkspaceSnapshotOutput> => {
      const [snapshot, waiting] = await Promise.all([
        loadWorkspaceSnapshot(ctx, user.id),
        pendingItemsOf(ctx, user.id, WAITING_LISTED),
      ]);
      return compactSnapshot(snapshot, waiting);
    },
  });
