import type { TConnection } from '@cc/contract';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../lib/api';

export const connectionKeys = { all: ['connections'] as const };

/** While a connection has not finished its first sync (or is syncing), the list looks again this often. */
export const CONNECTIONS_REFRESH_MS = 3_000;

export const connectionsQuery = () =>
  queryOptions({
    queryKey: connectionKeys.all,
    queryFn: ({ signal }) => api<TConnection[]>('/api/connections/', { signal }),
    refetchInterval: (q) =>
      q.state.data?.some((c) => c.status === 'syncing' || c.status === 'never_synced')
        ? CONNECTIONS_REFRESH_MS
        : false,
  });
