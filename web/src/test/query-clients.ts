import type { QueryClient } from '@tanstack/react-query';

/**
 * The query caches of the apps a test rendered. A read that failed waits before its retry, and a
 * retry that fires after its test would reach the next test's `fetch` mock (a route's prefetch starts
 * reads a test may not have mocked), so each test's caches are cancelled and emptied after it.
 */
const clients = new Set<QueryClient>();

export function trackQueryClient(client: QueryClient): void {
  clients.add(client);
}

export async function disposeQueryClients(): Promise<void> {
  const all = [...clients];
  clients.clear();
  for (const client of all) {
    await client.cancelQueries();
    client.clear();
  }
}
