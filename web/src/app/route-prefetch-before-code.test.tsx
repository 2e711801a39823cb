import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { makeUser } from '../test/fixtures';
import { mockApi } from '../test/mock-api';
import { renderApp } from '../test/render';

// The dashboard page's code never arrives (a slow network), so anything read comes from the prefetch.
vi.mock('./routes/ceo-dashboard-route', () => new Promise(() => {}));

describe('dashboard prefetch', () => {
  it("reads the dashboard's data while its code is still loading", async () => {
    const api = mockApi({
      'GET /api/users/me': { body: makeUser({ user_level: 'ceo' }) },
      'GET /api/strategic-goals': { body: [] },
      'GET /api/tasks/urgent': { body: [] },
      'GET /api/strategic-advice': { body: [] },
      'GET /api/briefs/': { body: [] },
    });
    renderApp({ path: '/app/ceodashboard', token: 'tok' });
    await waitFor(() =>
      expect(api.calls.map((c) => c.path).sort()).toEqual(
        expect.arrayContaining([
          '/api/briefs/',
          '/api/strategic-advice',
          '/api/strategic-goals',
          '/api/tasks/urgent',
        ]),
      ),
    );
    expect(screen.queryByRole('heading', { name: /Welcome back,/ })).not.toBeInTheDocument();
  });
});
