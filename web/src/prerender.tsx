import { StrictMode } from 'react';
import { prerender } from 'react-dom/static';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { Providers } from './app/providers';
import { routes } from './app/router';
import { createQueryClient } from './lib/query-client';

/** The public pages whose HTML is written at build time (web/build/prerender-pages.mjs). */
export const PRERENDERED_PATHS = ['/', '/login', '/signup', '/about'] as const;

/** Where a page's HTML goes in dist (the server reads the same names: server/src/platform/spa.ts). */
export const prerenderedFile = (page: string) => `prerendered/${page === '/' ? 'index' : page.slice(1)}.html`;

/**
 * The markup of a public page as a signed-out visitor first sees it, for the build to put inside
 * #root: the page paints before the app's script has run (the script then renders it afresh).
 * `prerender` waits for the lazy page chunks, unlike renderToString.
 */
export async function renderPage(url: string): Promise<string> {
  const router = createMemoryRouter(routes, { initialEntries: [url] });
  const { prelude } = await prerender(
    <StrictMode>
      <Providers client={createQueryClient()}>
        <RouterProvider router={router} />
      </Providers>
    </StrictMode>,
  );
  return new Response(prelude).text();
}
