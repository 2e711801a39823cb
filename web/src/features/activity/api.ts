import { ACTIVITY_PAGE_SIZE, type TActivityEntry, type TActivityList } from '@cc/contract';
import { keepPreviousData, useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api';
import { saveBlob, transfer } from '../../lib/upload';

/** The filters of the ledger's list and export (the admin's; a user's page uses none). */
export interface ActivityFilters {
  actor?: string;
  entity_type?: string;
  action?: string;
  /** `ai`: only the changes the AI and runs made. */
  source?: 'ai' | 'people';
  since?: string;
  until?: string;
}

export const activityKeys = {
  all: ['activity'] as const,
  list: (scope: 'mine' | 'admin', filters: ActivityFilters) => [...activityKeys.all, scope, filters] as const,
};

/** Blank filters are left out of the request. */
function cleaned(filters: ActivityFilters): ActivityFilters {
  return Object.fromEntries(
    Object.entries(filters).filter(([, v]) => v && String(v).trim()),
  ) as ActivityFilters;
}

/** Newest first, a page at a time; "Load more" follows `next_cursor`. */
export const useActivity = (scope: 'mine' | 'admin', filters: ActivityFilters = {}) =>
  useInfiniteQuery({
    queryKey: activityKeys.list(scope, cleaned(filters)),
    queryFn: ({ signal, pageParam }) =>
      api<TActivityList>('/api/activity/', {
        signal,
        query: { ...cleaned(filters), cursor: pageParam ?? undefined, limit: ACTIVITY_PAGE_SIZE },
      }),
    initialPageParam: null as number | null,
    getNextPageParam: (last) => last.next_cursor ?? undefined,
    placeholderData: keepPreviousData,
  });

/** Undo an entry: the server restores the before-state or answers 409 with what changed. */
export function useUndoActivity() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (entry: Pick<TActivityEntry, 'id'>) =>
      api<TActivityEntry>(`/api/activity/${encodeURIComponent(entry.id)}/undo`, { method: 'POST' }),
    // The restored record lives in another screen's cache (tasks, memory, advice): all of it is stale.
    onSettled: () => queryClient.invalidateQueries(),
  });
}

/** Downloads the export with the token (an <a href> could not send it). */
export async function downloadActivity(format: 'csv' | 'jsonl', filters: ActivityFilters): Promise<void> {
  const params = new URLSearchParams({ format, ...cleaned(filters) } as Record<string, string>);
  const blob = await transfer<Blob>(`/api/activity/export?${params}`, { responseType: 'blob' });
  saveBlob(blob, `activity.${format}`);
}
