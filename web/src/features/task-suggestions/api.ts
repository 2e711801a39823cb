import type {
  TApprovedSuggestion,
  TApproveSuggestionsResponse,
  TGenerateSuggestionsResponse,
  TTaskSuggestion,
} from '@cc/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api';
import { queryRoots } from '../../lib/queries/query-roots';

/** Pending AI task suggestions (ceo only). Approving refreshes 'tasks' too (list and dashboard). */
export const suggestionKeys = {
  all: ['task-suggestions'] as const,
  list: () => [...suggestionKeys.all, 'list'] as const,
};

export const taskSuggestionsQuery = () =>
  queryOptions({
    queryKey: suggestionKeys.list(),
    queryFn: ({ signal }) => api<TTaskSuggestion[]>('/api/task-suggestions/', { signal }),
  });

export const useTaskSuggestions = () => useQuery(taskSuggestionsQuery());

export function useGenerateSuggestions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api<TGenerateSuggestionsResponse>('/api/task-suggestions/generate', { method: 'POST' }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: suggestionKeys.all }),
  });
}

export function useApproveSuggestions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (suggestions: TApprovedSuggestion[]) =>
      api<TApproveSuggestionsResponse>('/api/task-suggestions/approve', {
        method: 'POST',
        json: suggestions,
      }),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: suggestionKeys.all }),
        queryClient.invalidateQueries({ queryKey: queryRoots.tasks }),
      ]),
  });
}

export function useRejectSuggestion() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, reason }: { id: string; reason: string }) =>
      api<TTaskSuggestion>(`/api/task-suggestions/${encodeURIComponent(id)}/reject`, {
        method: 'POST',
        json: { reason },
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: suggestionKeys.all }),
  });
}
