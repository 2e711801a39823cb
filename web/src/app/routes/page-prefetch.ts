import type { QueryClient } from '@tanstack/react-query';
import { briefsQuery } from '../../features/brief/queries';
import { conversationsQuery } from '../../lib/queries/conversations';

/**
 * The `handle.prefetch` of pages whose first read is a `queryOptions` (route-prefetch.ts): the same
 * query the page renders from, started once the profile has loaded instead of after the page's code.
 */

/** /app/brief: the history beside the brief (the page opens the newest of it). */
export function prefetchBrief(client: QueryClient): void {
  void client.prefetchQuery(briefsQuery());
}

/** /app/run and /app/conversations: the caller's conversations. */
export function prefetchConversations(client: QueryClient): void {
  void client.prefetchQuery(conversationsQuery());
}
