import { ADVICE_GENERATION_POLL_MS, type TAdviceGeneration } from '@cc/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api';
import { queryRoots } from '../../lib/queries/query-roots';
import { dashboardGoalsQuery, dashboardKeys, latestAdviceQuery, urgentTasksQuery } from './queries';

export { dashboardGoalsQuery, dashboardKeys, latestAdviceQuery, urgentTasksQuery } from './queries';

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
