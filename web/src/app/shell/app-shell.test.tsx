import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeUser } from '../../test/fixtures';
import { mockApi } from '../../test/mock-api';
import { renderApp } from '../../test/render';
import { RequireAuth } from '../guards';
import AppShell from './app-shell';
import { navItemsFor } from './nav-items';

// navItemsFor runs once per render of the shell: counting its calls counts the shell's renders.
vi.mock('./nav-items', async (importOriginal) => {
  const actual = await importOriginal<typeof import('./nav-items')>();
  return { ...actual, navItemsFor: vi.fn(actual.navItemsFor) };
});

/** jsdom has no EventSource: one that opens on the next microtask, like a live stream. */
class FakeEventSource {
  static opened: string[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((e: MessageEvent) => void) | null = null;
  onerror: (() => void) | null = null;
  constructor(readonly url: string) {
    queueMicrotask(() => {
      this.onopen?.();
      FakeEventSource.opened.push(url);
    });
  }
  addEventListener() {}
  close() {}
}

beforeEach(() => {
  FakeEventSource.opened = [];
  vi.stubGlobal('EventSource', FakeEventSource);
  vi.mocked(navItemsFor).mockClear();
});
afterEach(() => vi.unstubAllGlobals());

describe('App shell', () => {
  it('renders once while its inbox stream connects and opens (the stream status is not the shell’s)', async () => {
    mockApi({
      'GET /api/users/me': { body: makeUser({ first_name: 'Olivia', user_level: 'ceo' }) },
      'POST /api/auth/stream-ticket': { body: { ticket: 'tk' } },
      'GET /api/inbox/count': { body: { count: 2 } },
    });
    renderApp({
      path: '/app/page',
      token: 'tok',
      routes: [
        {
          path: '/app',
          element: <RequireAuth />,
          children: [{ element: <AppShell />, children: [{ path: 'page', element: <p>The page</p> }] }],
        },
      ],
    });
    expect(await screen.findByText('The page')).toBeInTheDocument();
    await waitFor(() =>
      expect(FakeEventSource.opened).toEqual([expect.stringContaining('/api/inbox/events')]),
    );
    // The live count still reaches the top bar.
    expect(await screen.findByText(', 2 waiting')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Dashboard/ })).toBeInTheDocument();
    expect(navItemsFor).toHaveBeenCalledTimes(1);
  });
});
