import { QueryCache, QueryClient } from '@tanstack/react-query';

declare module '@tanstack/react-query' {
  interface Register {
    queryMeta: {
      /** Called once when a query finally fails (after its retries). */
      onError?: (error: unknown) => void;
    };
  }
}

/** Default freshness (spec section 9): 5 minutes, one retry, no refetch on window focus. */
export const DEFAULT_STALE_MS = 5 * 60 * 1000;

export function createQueryClient(): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({
      onError: (error, query) => query.meta?.onError?.(error),
    }),
    defaultOptions: {
      queries: { staleTime: DEFAULT_STALE_MS, retry: 1, refetchOnWindowFocus: false },
      mutations: { retry: 0 },
    },
  });
}
