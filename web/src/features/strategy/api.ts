import {
  DEFAULT_GOAL_SORT,
  GOALS_STALE_MS,
  MAX_PAGE_SIZE,
  type TAdvice,
  type TCreateAdviceRequest,
  type TCreateGoalRequest,
  type TGoal,
  type TGoalSort,
  type TGoalTasks,
  type TKpiCheckin,
  type TKpiCheckinRequest,
  type TGoalStatus,
  type TUpdateAdviceRequest,
  type TUpdateGoalRequest,
} from '@cc/contract';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, type Query } from '../../lib/api';
import { queryRoots } from '../../lib/queries/query-roots';

export interface GoalFilters {
  search: string;
  status: TGoalStatus | '';
  organizationId: string;
  sortBy: TGoalSort;
  includeCompleted: boolean;
}

export const DEFAULT_GOAL_FILTERS: GoalFilters = {
  search: '',
  status: '',
  organizationId: '',
  sortBy: DEFAULT_GOAL_SORT,
  includeCompleted: false,
};

/** The query string of GET /api/strategic-goals for these filters (blank values are left out). */
export function goalQueryParams(f: GoalFilters): Query {
  return {
    search: f.search.trim() || undefined,
    status: f.status || undefined,
    organization_id: f.organizationId || undefined,
    sort_by: f.sortBy,
    include_completed: f.includeCompleted,
  };
}

/** Roots shared with the dashboard, so a change here refreshes it too. */
export const strategyKeys = {
  goals: queryRoots.goals,
  goalList: (params: Query) => [...strategyKeys.goals, 'list', params] as const,
  /** Under the tasks root: a task saved anywhere refreshes the goal's task list. */
  goalTasks: (goalId: string) => [...queryRoots.tasks, 'of-goal', goalId] as const,
  advice: queryRoots.advice,
  adviceList: () => [...strategyKeys.advice, 'list'] as const,
};

export const goalsQuery = (filters: GoalFilters) => {
  const params = goalQueryParams(filters);
  return queryOptions({
    queryKey: strategyKeys.goalList(params),
    queryFn: ({ signal }) => api<TGoal[]>('/api/strategic-goals', { signal, query: params }),
    staleTime: GOALS_STALE_MS,
    placeholderData: keepPreviousData,
  });
};

export const adviceListQuery = () =>
  queryOptions({
    queryKey: strategyKeys.adviceList(),
    queryFn: ({ signal }) => api<TAdvice[]>('/api/strategic-advice', { signal }),
  });

export const useGoals = (filters: GoalFilters) => useQuery(goalsQuery(filters));

/** The goal's open and recently done tasks (only read while `goalId` is set: an existing goal's dialog). */
export const useGoalTasks = (goalId: string | null) =>
  useQuery({
    queryKey: strategyKeys.goalTasks(goalId ?? ''),
    queryFn: ({ signal }) =>
      api<TGoalTasks>(`/api/strategic-goals/${encodeURIComponent(goalId ?? '')}/tasks`, { signal }),
    enabled: goalId !== null,
  });
export const useAdviceList = () => useQuery(adviceListQuery());

const goalPath = (id: string) => `/api/strategic-goals/${encodeURIComponent(id)}`;
const advicePath = (id: string) => `/api/strategic-advice/${encodeURIComponent(id)}`;

function useInvalidate(key: readonly string[]) {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: key });
}

/** One goal / one advice as stored now (an edit form's fresh version after a refused save). */
export const readGoal = (id: string) => api<TGoal>(goalPath(id));
export const readAdvice = (id: string) => api<TAdvice>(advicePath(id));

/**
 * The goal a KPI belongs to, among the goals the reader may see (completed ones included); null when
 * none of them has it (a KPI of a hidden or deleted goal). A KPI citation opens this goal.
 */
export async function readGoalOfKpi(kpiId: string): Promise<TGoal | null> {
  const goals = await api<TGoal[]>('/api/strategic-goals', {
    query: { include_completed: true, limit: MAX_PAGE_SIZE },
  });
  return goals.find((g) => g.kpis.some((k) => k.id === kpiId)) ?? null;
}

export function useSaveGoal() {
  const invalidate = useInvalidate(strategyKeys.goals);
  return useMutation({
    mutationFn: ({
      id,
      body,
      ifMatch,
    }: {
      id?: string;
      body: TCreateGoalRequest & TUpdateGoalRequest;
      ifMatch?: string;
    }) =>
      id
        ? api<TGoal>(goalPath(id), { method: 'PUT', json: body, ifMatch })
        : api<TGoal>('/api/strategic-goals', { method: 'POST', json: body }),
    onSettled: invalidate,
  });
}

/** POST a KPI check-in; the goals refresh (the KPI's value and trend change). */
export function useRecordCheckin() {
  const invalidate = useInvalidate(strategyKeys.goals);
  return useMutation({
    mutationFn: ({ goalId, kpiId, body }: { goalId: string; kpiId: string; body: TKpiCheckinRequest }) =>
      api<TKpiCheckin>(`${goalPath(goalId)}/kpis/${encodeURIComponent(kpiId)}/checkins`, {
        method: 'POST',
        json: body,
      }),
    onSettled: invalidate,
  });
}

export function useDeleteGoal() {
  const invalidate = useInvalidate(strategyKeys.goals);
  return useMutation({
    mutationFn: (id: string) => api<void>(goalPath(id), { method: 'DELETE' }),
    onSettled: invalidate,
  });
}

export function useSaveAdvice() {
  const invalidate = useInvalidate(strategyKeys.advice);
  return useMutation({
    mutationFn: ({
      id,
      body,
      ifMatch,
    }: {
      id?: string;
      body: TCreateAdviceRequest & TUpdateAdviceRequest;
      ifMatch?: string;
    }) =>
      id
        ? api<TAdvice>(advicePath(id), { method: 'PUT', json: body, ifMatch })
        : api<TAdvice>('/api/strategic-advice', { method: 'POST', json: body }),
    onSettled: invalidate,
  });
}

export function useDeleteAdvice() {
  const invalidate = useInvalidate(strategyKeys.advice);
  return useMutation({
    mutationFn: (id: string) => api<void>(advicePath(id), { method: 'DELETE' }),
    onSettled: invalidate,
  });
}
