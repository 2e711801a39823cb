import { MAX_PAGE_SIZE, type TGoal } from '@cc/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../api';
import { queryRoots } from './query-roots';

/** A goal a task may be linked to: one the caller sees (issue 20 §1). */
export interface GoalOption {
  id: string;
  title: string;
}

/**
 * The caller's open goals (done ones left out, as on the Strategy Center), for the task dialog's goal
 * picker. Under the goals root, so a goal saved in the Strategy Center refreshes the picker.
 */
export const goalOptionsQuery = () =>
  queryOptions({
    queryKey: [...queryRoots.goals, 'options'] as const,
    queryFn: async ({ signal }): Promise<GoalOption[]> =>
      (await api<TGoal[]>('/api/strategic-goals', { signal, query: { limit: MAX_PAGE_SIZE } })).map((g) => ({
        id: g.id,
        title: g.title,
      })),
  });

export const useGoalOptions = () => useQuery(goalOptionsQuery());
