import { DASHBOARD_URGENT_TASKS, GOALS_STALE_MS, type TAdvice, type TGoal, type TTask } from '@cc/contract';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../lib/api';
import { queryRoots } from '../../lib/queries/query-roots';

/**
 * The dashboard's reads. The roots ('strategic-goals', 'strategic-advice', 'tasks') are the same as
 * the Strategy Center's and the Tasks page's, so their mutations refresh the dashboard too.
 */
export const dashboardKeys = {
  goals: () => [...queryRoots.goals, 'list', {}] as const,
  latestAdvice: () => [...queryRoots.advice, 'latest'] as const,
  urgentTasks: () => [...queryRoots.tasks, 'urgent', DASHBOARD_URGENT_TASKS] as const,
  adviceRun: (id: string) => ['flow-runs', 'strategic_flow', id] as const,
};

export const dashboardGoalsQuery = () =>
  queryOptions({
    queryKey: dashboardKeys.goals(),
    queryFn: ({ signal }) => api<TGoal[]>('/api/strategic-goals', { signal }),
    staleTime: GOALS_STALE_MS,
  });

export const urgentTasksQuery = () =>
  queryOptions({
    queryKey: dashboardKeys.urgentTasks(),
    queryFn: ({ signal }) =>
      api<TTask[]>('/api/tasks/urgent', { signal, query: { limit: DASHBOARD_URGENT_TASKS } }),
  });

/** The newest advice by created_at (the server lists newest first). */
export const latestAdviceQuery = () =>
  queryOptions({
    queryKey: dashboardKeys.latestAdvice(),
    queryFn: async ({ signal }) => {
      const list = await api<TAdvice[]>('/api/strategic-advice', { signal, query: { limit: 1 } });
      return list[0] ?? null;
    },
  });
