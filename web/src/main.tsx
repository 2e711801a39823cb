import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { Providers } from './app/providers';
import { routes } from './app/router';
import { createQueryClient } from './lib/query-client';
import './index.css';

const router = createBrowserRouter(routes);
const queryClient = createQueryClient();

const container = document.getElementById('root')!;
const app = (
  <StrictMode>
    <Providers client={queryClient}>
      <RouterProvider router={router} />
    </Providers>
  </StrictMode>
);
// A prerendered public page (web/src/prerender.tsx) is hydrated: the markup already on screen becomes
// live in place, and what a visitor typed before the script ran stays. Every other page starts empty.
if (container.firstElementChild) hydrateRoot(container, app);
else {
  // A transition: React renders the first screen in slices of a few milliseconds, yielding between
  // them, instead of one long task (what a phone's Total Blocking Time counts).
  const root = createRoot(container);
  startTransition(() => root.render(app));
}
