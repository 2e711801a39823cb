import { TOKEN_STORAGE_KEY } from '@cc/contract';
import { render } from '@testing-library/react';
import { createMemoryRouter, type RouteObject, RouterProvider } from 'react-router';
import { Providers } from '../app/providers';
import { routes as appRoutes } from '../app/router';
import { createQueryClient } from '../lib/query-client';
import { trackQueryClient } from './query-clients';

interface RenderAppOptions {
  /** Where the app starts. */
  path?: string;
  /** A stored access token (the visitor is signed in). */
  token?: string | null;
  routes?: RouteObject[];
}

/** Renders the real app (router, providers, toaster) in memory at `path`. */
export function renderApp({ path = '/', token = null, routes = appRoutes }: RenderAppOptions = {}) {
  if (token) localStorage.setItem(TOKEN_STORAGE_KEY, token);
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const queryClient = createQueryClient();
  trackQueryClient(queryClient);
  const utils = render(
    <Providers client={queryClient}>
      <RouterProvider router={router} />
    </Providers>,
  );
  return { ...utils, router, queryClient };
}
