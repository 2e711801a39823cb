import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { makeUser } from '../../test/fixtures';
import { type Handler, mockApi } from '../../test/mock-api';
import { renderApp } from '../../test/render';

// The run controls follow a run's live stream; no run is active here.
vi.mock('../../lib/event-stream', () => ({ useEventStream: () => 'open' }));

const conversation = {
  id: 'c1',
  name: 'Board prep',
  created_at: '2026-03-01T10:00:00.000Z',
  updated_at: '2026-03-01T10:00:00.000Z',
};

function setup(level: 'ceo' | 'user', path: string, routes: Record<string, Handler> = {}) {
  const api = mockApi({ 'GET /api/users/me': { body: makeUser({ user_level: level }) }, ...routes });
  renderApp({ path, token: 'tok' });
  return api;
}

/** Features never import each other; these routes compose two features into one screen. */
describe('routes that compose features', () => {
  it('/app/conversations/:id shows the chat with the crew and flow controls in it', async () => {
    setup('user', '/app/conversations/c1', {
      'GET /api/conversations/c1': { body: conversation },
      'GET /api/conversations/c1/messages': { body: { items: [], has_more: false, cursor: '0' } },
      'GET /api/crew-runs/': { body: [] },
      'GET /api/flow-runs/': { body: [] },
    });
    expect(await screen.findByText('Start a new conversation')).toBeInTheDocument();
    expect(await screen.findByText('Crew: Inactive')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Start crew or flow' })).toBeInTheDocument();
  });

  it("/app/my-tasks shows the task list with the ceo's AI task suggestions", async () => {
    setup('ceo', '/app/my-tasks', {
      'GET /api/tasks': { body: [] },
      'GET /api/organizations': { body: [] },
      'GET /api/contacts/assignable': { body: [] },
      'GET /api/task-suggestions/': { body: [] },
    });
    expect(await screen.findByRole('heading', { name: 'Tasks' })).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Generate tasks' })).toBeInTheDocument();
  });
});
