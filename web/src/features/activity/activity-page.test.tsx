import type { TActivityEntry } from '@cc/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { makeUser } from '../../test/fixtures';
import { type Handler, mockApi } from '../../test/mock-api';
import { renderApp } from '../../test/render';
import { viaLabel } from './components/activity-list';

const entry = (over: Partial<TActivityEntry>): TActivityEntry => ({
  id: 'e1',
  ts: '2026-11-24T10:00:00.000Z',
  actor_user_id: 'u1',
  actor_name: 'Olivia Chen',
  via: 'ai',
  action: 'task.created',
  entity_type: 'task',
  entity_id: 't1',
  summary: 'Created the task "Call the distributors" from an AI suggestion',
  before: null,
  after: { title: 'Call the distributors' },
  undoable: true,
  undone: false,
  can_undo: true,
  ...over,
});

const signIn = entry({
  id: 'e2',
  via: 'ui',
  action: 'auth.sign_in',
  entity_type: 'user',
  summary: 'Signed in',
  undoable: false,
  can_undo: false,
});

function setup(level: string, routes: Record<string, Handler>, path = '/app/activity') {
  const api = mockApi({
    'GET /api/users/me': { body: makeUser({ id: 'u1', user_level: level }) },
    'GET /api/users/': { body: [] },
    'GET /api/organizations': { body: [] },
    ...routes,
  });
  renderApp({ path, token: 'tok' });
  return api;
}

describe('activity page', () => {
  it('lists the trail with where each change came from, and Undo only where it applies', async () => {
    setup('ceo', { 'GET /api/activity/': { body: { items: [entry({}), signIn], next_cursor: null } } });
    const rows = await screen.findAllByTestId('activity-entry');
    expect(rows).toHaveLength(2);
    expect(within(rows[0]).getByText('AI')).toBeInTheDocument();
    expect(within(rows[0]).getByRole('button', { name: /^Undo: Created the task/ })).toBeInTheDocument();
    expect(within(rows[1]).getByText('Web app')).toBeInTheDocument();
    expect(within(rows[1]).queryByRole('button')).not.toBeInTheDocument();
  });

  it('undoes a change and shows it undone after the refresh', async () => {
    let undone = false;
    const { callsTo } = setup('ceo', {
      'GET /api/activity/': () => ({
        body: { items: [entry(undone ? { undone: true, can_undo: false } : {})], next_cursor: null },
      }),
      'POST /api/activity/e1/undo': () => {
        undone = true;
        return { body: entry({ id: 'e3', action: 'activity.undone', summary: 'Undid: deleted the task' }) };
      },
    });
    await userEvent.click(await screen.findByRole('button', { name: /^Undo: / }));
    await waitFor(() => expect(callsTo('POST', '/api/activity/e1/undo')).toHaveLength(1));
    expect(await screen.findByText('Change undone')).toBeInTheDocument();
    expect(await screen.findByText('Undone')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Undo: / })).not.toBeInTheDocument();
  });

  it('says what changed when the record was edited since (409)', async () => {
    setup('ceo', {
      'GET /api/activity/': { body: { items: [entry({})], next_cursor: null } },
      'POST /api/activity/e1/undo': {
        status: 409,
        body: { detail: 'The task was changed since (title): it was not undone.' },
      },
    });
    await userEvent.click(await screen.findByRole('button', { name: /^Undo: / }));
    expect(await screen.findByText('Undo failed')).toBeInTheDocument();
    expect(screen.getByText('The task was changed since (title): it was not undone.')).toBeInTheDocument();
  });

  it('loads older entries with the cursor', async () => {
    const { callsTo } = setup('user', {
      'GET /api/activity/': ({ search }) =>
        search.get('cursor') === '7'
          ? { body: { items: [signIn], next_cursor: null } }
          : { body: { items: [entry({ can_undo: false })], next_cursor: 7 } },
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Load more' }));
    expect((await screen.findAllByText('Signed in')).length).toBeGreaterThan(0);
    expect(callsTo('GET', '/api/activity/').map((c) => c.search.get('cursor'))).toEqual([null, '7']);
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
  });

  it('says each action in words, never its code', async () => {
    setup('ceo', {
      'GET /api/activity/': {
        body: {
          items: [
            entry({}),
            entry({ id: 'e5', action: 'auth.sign_in_failed', summary: 'x', can_undo: false }),
          ],
          next_cursor: null,
        },
      },
    });
    expect(await screen.findByText('Task created')).toBeInTheDocument();
    expect(screen.getByText('Failed sign-in')).toBeInTheDocument();
    expect(screen.queryByText('auth.sign_in_failed')).not.toBeInTheDocument();
    expect(screen.queryByText('task.created')).not.toBeInTheDocument();
  });

  it('folds consecutive sign-ins into one row that opens on demand', async () => {
    const signIns = [1, 2, 3].map((n) => ({ ...signIn, id: `s${n}`, ts: `2026-11-2${n}T08:00:00.000Z` }));
    setup('ceo', { 'GET /api/activity/': { body: { items: [entry({}), ...signIns], next_cursor: null } } });
    expect(await screen.findByText('Signed in 3 times')).toBeInTheDocument();
    expect(screen.getAllByTestId('activity-entry')).toHaveLength(1);
    await userEvent.click(screen.getByRole('button', { name: 'Show all' }));
    expect(screen.getAllByTestId('activity-entry')).toHaveLength(4);
  });

  it('"AI changes" asks the server for the AI\'s and runs\' entries only', async () => {
    const { callsTo } = setup('ceo', {
      'GET /api/activity/': ({ search }) => ({
        body: { items: search.get('source') === 'ai' ? [entry({})] : [entry({}), signIn], next_cursor: null },
      }),
    });
    await screen.findAllByTestId('activity-entry');
    await userEvent.click(screen.getByRole('button', { name: 'AI changes' }));
    await waitFor(() => expect(callsTo('GET', '/api/activity/').at(-1)?.search.get('source')).toBe('ai'));
    await waitFor(() => expect(screen.getAllByTestId('activity-entry')).toHaveLength(1));
    expect(screen.getByRole('button', { name: 'AI changes' })).toHaveAttribute('aria-pressed', 'true');
  });

  it('names runs and API clients', () => {
    expect(viaLabel('run:abc').label).toBe('Run');
    expect(viaLabel('api').label).toBe('API');
  });
});

describe('Super Admin activity tab', () => {
  it("shows everyone's entries with their actor, and sends the filters", async () => {
    const { callsTo } = setup(
      'admin',
      { 'GET /api/activity/': { body: { items: [entry({ can_undo: false })], next_cursor: null } } },
      '/app/admin',
    );
    await userEvent.click(await screen.findByRole('tab', { name: 'Activity' }));
    expect(await screen.findByText('by Olivia Chen')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Export CSV' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Export JSON lines' })).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Action'), 'auth.sign_in_failed');
    await userEvent.type(screen.getByLabelText('Entity type'), 'user');
    await userEvent.click(screen.getByRole('button', { name: 'Apply filters' }));
    await waitFor(() => {
      const last = callsTo('GET', '/api/activity/').at(-1);
      expect(last?.search.get('action')).toBe('auth.sign_in_failed');
      expect(last?.search.get('entity_type')).toBe('user');
    });
    expect(callsTo('GET', '/api/activity/')[0].search.get('action')).toBeNull();
  });
});
