import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useRef } from 'react';
import { type UIMatch, useMatches } from 'react-router';

/**
 * What a route of the signed-in app may carry in its `handle`: `prefetch` starts the page's reads (and
 * may start loading its code) as soon as the caller is known to be signed in, instead of once the app
 * shell's and the page's code have loaded and the page has rendered a skeleton. On the dashboard that
 * starts its reads about one round of chunk loading earlier, and its first render has the data.
 * A prefetch must be idempotent (React Query's `prefetchQuery` and `import()` are).
 */
export interface RouteHandle {
  prefetch?: (client: QueryClient) => void;
}

/**
 * Runs the `prefetch` of every matched route once `ready` (the profile has loaded and the user may
 * use the app: a waitlisted user's reads would be refused, and a refused read ends the session), and
 * again on each navigation. It runs during render, as React Query's `usePrefetchQuery` does: the
 * render that has the profile suspends on the shell's lazy code and is not committed until that code
 * has loaded, so an effect would start the reads only then. Reads already cached and fresh are not
 * fetched again.
 */
export function usePrefetchMatchedRoutes(ready: boolean): void {
  const matches = useMatches();
  const client = useQueryClient();
  const done = useRef<UIMatch[] | null>(null);
  if (!ready || done.current === matches) return;
  done.current = matches;
  for (const match of matches) (match.handle as RouteHandle | undefined)?.prefetch?.(client);
}
