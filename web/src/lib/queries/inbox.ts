import { INBOX_CHANGED_EVENT, type TInboxCount } from '@cc/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../api';
import { useEventStream } from '../event-stream';

/**
 * The approvals inbox's queries, shared by the Inbox page, the top bar (count), the mobile drawer
 * and the dashboard's Urgent panel. Everything lives under 'inbox': one note on the caller's inbox
 * stream refreshes the list and the count in every open tab.
 */
export const inboxKeys = {
  all: ['inbox'] as const,
  list: () => [...inboxKeys.all, 'list'] as const,
  count: () => [...inboxKeys.all, 'count'] as const,
};

export const INBOX_PATH = '/app/inbox';

export function useInboxCount() {
  return useQuery({
    queryKey: inboxKeys.count(),
    queryFn: ({ signal }) => api<TInboxCount>('/api/inbox/count', { signal }),
  });
}

/** Follows GET /api/inbox/events while mounted (the signed-in shell): each change reloads 'inbox'. */
export function useInboxLive(enabled = true) {
  const queryClient = useQueryClient();
  return useEventStream(enabled ? '/api/inbox/events' : null, {
    onMessage: (msg) => {
      const kind = (msg.data as { kind?: string } | null)?.kind;
      if (kind === INBOX_CHANGED_EVENT) void queryClient.invalidateQueries({ queryKey: inboxKeys.all });
    },
  });
}
