import {
  ADVICE_GENERATION_POLL_MS,
  DASHBOARD_URGENT_TASKS,
  GOALS_STALE_MS,
  type TAdvice,
  type TAdviceGeneration,
  type TGoal,
  type TTask,
} from '@cc/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
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

export const useDashboardGoals = () => useQuery(dashboardGoalsQuery());
export const useUrgentTasks = () => useQuery(urgentTasksQuery());
export const useLatestAdvice = () => useQuery(latestAdviceQuery());

/** Generate Advice: starts the strategic flow for the signed-in user; answers at once with the run. */
export function useGenerateAdvice() {
  return useMutation({
    mutationFn: (userId: string) =>
      api<TAdviceGeneration>('/api/flow/run/strategic_flow', {
        method: 'POST',
        json: { inputs: { user_id: userId } },
      }),
  });
}

/**
 * Follows a Generate Advice run: re-reads its status every 2 s while it runs, and refreshes the
 * advice when it lands, so the new advice appears without a reload.
 */
export function useAdviceRun(runId: string | null) {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: dashboardKeys.adviceRun(runId ?? ''),
    enabled: Boolean(runId),
    queryFn: async ({ signal }) => {
      const run = await api<TAdviceGeneration>(`/api/flow/runs/${encodeURIComponent(runId ?? '')}`, {
        signal,
      });
      if (run.status === 'completed') await queryClient.invalidateQueries({ queryKey: queryRoots.advice });
      return run;
    },
    refetchInterval: (q) =>
      q.state.status !== 'error' && (!q.state.data || q.state.data.status === 'running')
        ? ADVICE_GENERATION_POLL_MS
        : false,
    staleTime: 0,
    retry: 2,
  });
}
