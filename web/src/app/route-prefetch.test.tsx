import type { TBrief, TConversation, TGoal } from '@cc/contract';
import { QueryClient } from '@tanstack/react-query';
import { screen, waitFor } from '@testing-library/react';
import type { RouteObject } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { briefsQuery, todaysBriefQuery } from '../features/brief/queries';
import { dashboardKeys } from '../features/dashboard/queries';
import { conversationsQuery } from '../lib/queries/conversations';
import { makeUser } from '../test/fixtures';
import { mockApi } from '../test/mock-api';
import { renderApp } from '../test/render';
import { RequireAuth } from './guards';
import type { RouteHandle } from './route-prefetch';
import { routes } from './router';
import { prefetchCeoDashboard } from './routes/ceo-dashboard-prefetch';

/** The `handle` of the app's route at `/app/<path>` (routes nest without their parents' paths). */
function handleOf(path: string): RouteHandle | undefined {
  const walk = (list: RouteObject[]): RouteObject | undefined =>
    list.reduce<RouteObject | undefined>(
      (hit, r) => hit ?? (r.path === path ? r : walk(r.children ?? [])),
      undefined,
    );
  return walk(routes)?.handle as RouteHandle | undefined;
}

/** A signed-in area whose one page carries `prefetch` (a spy) and renders a marker text. */
function areaWith(prefetch: NonNullable<RouteHandle['prefetch']>): RouteObject[] {
  return [
    { path: '/waitlist', element: <p>waitlist page</p> },
    {
      path: '/app',
      element: <RequireAuth />,
      children: [{ path: 'page', element: <p>the page</p>, handle: { prefetch } satisfies RouteHandle }],
    },
  ];
}

describe('route prefetch', () => {
  it("runs a matched route's prefetch with the query cache once the profile has loaded, not before", async () => {
    let answer: (r: Response) => void = () => {};
    const profile = new Promise<Response>((resolve) => {
      answer = resolve;
    });
    mockApi({ 'GET /api/users/me': () => profile });
    const prefetch = vi.fn();
    const { queryClient } = renderApp({ path: '/app/page', token: 'tok', routes: areaWith(prefetch) });
    expect(await screen.findByText('Loading your workspace…')).toBeInTheDocument();
    expect(prefetch).not.toHaveBeenCalled();
    answer(Response.json(makeUser({ user_level: 'ceo' })));
    expect(await screen.findByText('the page')).toBeInTheDocument();
    expect(prefetch).toHaveBeenCalledTimes(1);
    expect(prefetch).toHaveBeenCalledWith(queryClient);
  });

  it('never runs it for a waitlisted user (their reads would be refused and end the session)', async () => {
    mockApi({ 'GET /api/users/me': { body: makeUser({ user_level: 'waitlisted' }) } });
    const prefetch = vi.fn();
    renderApp({ path: '/app/page', token: 'tok', routes: areaWith(prefetch) });
    expect(await screen.findByText('waitlist page')).toBeInTheDocument();
    expect(prefetch).not.toHaveBeenCalled();
  });

  it("the dashboard's prefetch reads what its cards show, under the keys they read", async () => {
    const goals = [{ id: 'g1', title: 'Grow revenue' }] as TGoal[];
    const briefs = [{ id: 'b1' }] as TBrief[];
    const api = mockApi({
      'GET /api/strategic-goals': { body: goals },
      'GET /api/tasks/urgent': { body: [] },
      'GET /api/strategic-advice': { body: [] },
      'GET /api/briefs/': { body: briefs },
    });
    const client = new QueryClient();
    prefetchCeoDashboard(client);
    await waitFor(() => expect(api.calls).toHaveLength(4));
    await waitFor(() => expect(client.getQueryData(todaysBriefQuery().queryKey)).toEqual(briefs));
    expect(client.getQueryData(dashboardKeys.goals())).toEqual(goals);
    expect(client.getQueryData(dashboardKeys.urgentTasks())).toEqual([]);
    expect(client.getQueryData(dashboardKeys.latestAdvice())).toBeNull();
    expect(api.callsTo('GET', '/api/briefs/')[0].search.get('limit')).toBe('1');
  });

  it('the dashboard reads each of its sources once: the prefetched data is what the cards render', async () => {
    const api = mockApi({
      'GET /api/users/me': { body: makeUser({ id: 'user-ceo', first_name: 'Olivia', user_level: 'ceo' }) },
      'GET /api/strategic-goals': { body: [] },
      'GET /api/tasks/urgent': { body: [] },
      'GET /api/strategic-advice': { body: [] },
      'GET /api/briefs/': { body: [] },
    });
    renderApp({ path: '/app/ceodashboard', token: 'tok' });
    expect(await screen.findByText('No strategic goals defined yet.')).toBeInTheDocument();
    expect(await screen.findByText('No high-priority tasks at the moment. Well done!')).toBeInTheDocument();
    for (const path of [
      '/api/strategic-goals',
      '/api/tasks/urgent',
      '/api/strategic-advice',
      '/api/briefs/',
    ]) {
      expect(api.callsTo('GET', path), path).toHaveLength(1);
    }
  });

  it("the Brief page's route prefetches the history the page opens, under the page's key", async () => {
    const briefs = [{ id: 'b1' }, { id: 'b0' }] as TBrief[];
    const api = mockApi({ 'GET /api/briefs/': { body: briefs } });
    const client = new QueryClient();
    handleOf('brief')?.prefetch?.(client);
    await waitFor(() => expect(client.getQueryData(briefsQuery().queryKey)).toEqual(briefs));
    expect(api.calls).toHaveLength(1);
  });

  it('the Run and Conversations routes prefetch the conversation list both pages render', async () => {
    const list = [{ id: 'c1', name: 'Plan' }] as TConversation[];
    for (const path of ['run', 'conversations']) {
      const api = mockApi({ 'GET /api/conversations/': { body: list } });
      const client = new QueryClient();
      handleOf(path)?.prefetch?.(client);
      await waitFor(() => expect(client.getQueryData(conversationsQuery().queryKey), path).toEqual(list));
      expect(api.calls, path).toHaveLength(1);
    }
  });
});
