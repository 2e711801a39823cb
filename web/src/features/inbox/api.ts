import type { TInboxActionResponse, TInboxList } from '@cc/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api';
import { inboxKeys } from '../../lib/queries/inbox';
import { queryRoots } from '../../lib/queries/query-roots';

/** The first page of the caller's inbox, oldest first (the count in the top bar says how many in all). */
export const INBOX_PAGE_SIZE = 100;

export const useInboxList = () =>
  useQuery({
    queryKey: inboxKeys.list(),
    queryFn: ({ signal }) => api<TInboxList>('/api/inbox/', { signal, query: { limit: INBOX_PAGE_SIZE } }),
  });

export type InboxAction =
  | { id: string; action: 'approve'; edits?: Record<string, unknown> }
  | { id: string; action: 'reject'; reason: string }
  | { id: string; action: 'delegate'; user_id: string };

/** One action on an item; afterwards the inbox reloads (and tasks, which an approval may create). */
export function useInboxAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action, ...body }: InboxAction) =>
      api<TInboxActionResponse>(`/api/inbox/${encodeURIComponent(id)}/${action}`, {
        method: 'POST',
        json: body,
      }),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: inboxKeys.all }),
        queryClient.invalidateQueries({ queryKey: queryRoots.tasks }),
      ]),
  });
}
