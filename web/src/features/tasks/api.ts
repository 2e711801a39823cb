import type {
  TCreateTaskRequest,
  TTask,
  TTaskPriority,
  TTaskShare,
  TTaskStatus,
  TUpdateTaskRequest,
} from '@cc/contract';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, type Query } from '../../lib/api';
import { queryRoots } from '../../lib/queries/query-roots';

export interface TaskFilters {
  search: string;
  status: TTaskStatus | '';
  priority: TTaskPriority | '';
  /** A user id, or '' for anyone (the filter is shown to ceo only). */
  assignedTo: string;
  includeCompleted: boolean;
}

export const DEFAULT_TASK_FILTERS: TaskFilters = {
  search: '',
  status: '',
  priority: '',
  assignedTo: '',
  includeCompleted: false,
};

/** The query string of GET /api/tasks (blank values are left out). */
export function taskQueryParams(f: TaskFilters): Query {
  return {
    search: f.search.trim() || undefined,
    status: f.status || undefined,
    priority: f.priority || undefined,
    assignedTo: f.assignedTo || undefined,
    include_completed: f.includeCompleted,
  };
}

/** Under the shared tasks root (the dashboard's urgent tasks too), so task changes refresh it. */
export const taskKeys = {
  all: queryRoots.tasks,
  list: (params: Query) => [...taskKeys.all, 'list', params] as const,
  shares: (id: string) => [...taskKeys.all, id, 'shares'] as const,
};

export const tasksQuery = (filters: TaskFilters) => {
  const params = taskQueryParams(filters);
  return queryOptions({
    queryKey: taskKeys.list(params),
    queryFn: ({ signal }) => api<TTask[]>('/api/tasks', { signal, query: params }),
    placeholderData: keepPreviousData,
  });
};

export const useTasks = (filters: TaskFilters) => useQuery(tasksQuery(filters));

export const useTaskShares = (id: string | undefined) =>
  useQuery({
    queryKey: taskKeys.shares(id ?? ''),
    queryFn: ({ signal }) => api<TTaskShare[]>(`${taskPath(id ?? '')}/shares`, { signal }),
    enabled: Boolean(id),
  });

const taskPath = (id: string) => `/api/tasks/${encodeURIComponent(id)}`;

/**
 * Task mutations fail silently (spec section 8) but always end with a refetch, so the list never
 * shows a state the server does not have.
 */
function useTaskMutation<V>(fn: (vars: V) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSettled: () => queryClient.invalidateQueries({ queryKey: taskKeys.all }),
  });
}

export const useCreateTask = () =>
  useTaskMutation((body: TCreateTaskRequest) => api<TTask>('/api/tasks', { method: 'POST', json: body }));

/** One task as stored now (the edit form's fresh version after a refused save). */
export const readTask = (id: string) => api<TTask>(taskPath(id));

export const useUpdateTask = () =>
  useTaskMutation(({ id, body, ifMatch }: { id: string; body: TUpdateTaskRequest; ifMatch?: string }) =>
    api<TTask>(taskPath(id), { method: 'PUT', json: body, ifMatch }),
  );

export const useAssignTask = () =>
  useTaskMutation(({ id, userId }: { id: string; userId: string | null }) =>
    api<TTask>(`${taskPath(id)}/assign`, { method: 'PUT', json: { assigned_to_user_id: userId } }),
  );

export const useShareTask = () =>
  useTaskMutation(({ id, ids }: { id: string; ids: string[] }) =>
    api<TTask>(`${taskPath(id)}/share/orgs`, { method: 'POST', json: { ids } }),
  );

export const useDeleteTask = () =>
  useTaskMutation((id: string) => api<void>(taskPath(id), { method: 'DELETE' }));
