import type { TAdvice } from '@cc/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../api';
import { queryRoots } from './query-roots';

/**
 * PATCH /api/strategic-advice/{id}/feedback, from the dashboard's advice card and the Strategy
 * Center's advice list; either way every advice view (both screens) is refreshed.
 */
export function useSaveAdviceFeedback() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, feedback }: { id: string; feedback: string }) =>
      api<TAdvice>(`/api/strategic-advice/${encodeURIComponent(id)}/feedback`, {
        method: 'PATCH',
        json: { feedback },
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryRoots.advice }),
  });
}
