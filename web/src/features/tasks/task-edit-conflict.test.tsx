import type { TTask } from '@cc/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { makeOrg, makeUser } from '../../test/fixtures';
import { mockApi } from '../../test/mock-api';
import { renderApp } from '../../test/render';

const OPENED = '2026-01-01T00:00:00.000Z';
const THEIRS = '2026-01-02T09:30:00.000Z';

function makeTask(over: Partial<TTask> = {}): TTask {
  return {
    id: 'task-1',
    title: 'Close the Series B',
    description: null,
    priority: 'High',
    status: 'To Do',
    due_date: null,
    notes: null,
    assigned_to_user_id: null,
    assigned_to_user: null,
    created_by: 'user-ceo',
    created_by_user: null,
    shared_org_ids: [],
    goal_id: null,
    can_edit: true,
    can_delete: true,
    can_assign: true,
    created_at: OPENED,
    updated_at: OPENED,
    ...over,
  };
}

/** The server: the first save is refused (someone else saved meanwhile), later ones succeed. */
function setup() {
  const fresh = makeTask({ title: 'Their title', status: 'Review', updated_at: THEIRS });
  let saves = 0;
  const api = mockApi({
    'GET /api/users/me': { body: makeUser({ id: 'user-ceo', user_level: 'ceo' }) },
    'GET /api/tasks': { body: [makeTask()] },
    'GET /api/tasks/task-1': { body: fresh },
    'GET /api/organizations': { body: [makeOrg()] },
    'GET /api/contacts/assignable': { body: [] },
    'PUT /api/tasks/task-1': () => {
      saves += 1;
      return saves === 1
        ? { status: 412, body: { detail: 'This item was changed by someone else. Reload it.' } }
        : { body: makeTask({ title: 'Mine', updated_at: '2026-01-03T00:00:00.000Z' }) };
    },
  });
  renderApp({ path: '/app/my-tasks', token: 'tok' });
  return api;
}

async function editTitle(title: string) {
  await userEvent.click(await screen.findByRole('button', { name: 'Edit Close the Series B' }));
  const dialog = await screen.findByRole('dialog');
  const input = within(dialog).getByLabelText('Title');
  await userEvent.clear(input);
  await userEvent.type(input, title);
  await userEvent.click(within(dialog).getByRole('button', { name: 'Save task' }));
  return dialog;
}

describe('task edit: someone else saved first', () => {
  it('sends If-Match, shows the fresh version on 412 and keeps the typed text; saving again applies only the typed changes on top', async () => {
    const { callsTo } = setup();
    const dialog = await editTitle('Mine');

    const banner = await within(dialog).findByTestId('stale-version');
    expect(banner).toHaveTextContent('This item was changed by someone else');
    expect(within(banner).getByText('Their title')).toBeInTheDocument();
    expect(within(banner).getByText('Review')).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Title')).toHaveValue('Mine');
    expect(callsTo('PUT', '/api/tasks/task-1')[0].headers['If-Match']).toBe(`"${OPENED}"`);
    // A 412 is not a session problem: still signed in, still on the page.
    expect(screen.queryByText('Session Expired')).not.toBeInTheDocument();

    await userEvent.click(within(dialog).getByRole('button', { name: 'Save task' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const second = callsTo('PUT', '/api/tasks/task-1')[1];
    expect(second.headers['If-Match']).toBe(`"${THEIRS}"`);
    // Only what was typed goes over their version: their status (Review) stays.
    expect(second.body).toEqual({ title: 'Mine' });
  });

  it('"Use their version" replaces the typed values with the fresh ones', async () => {
    setup();
    const dialog = await editTitle('Mine');
    await userEvent.click(await within(dialog).findByRole('button', { name: 'Use their version' }));
    await waitFor(() => expect(within(dialog).getByLabelText('Title')).toHaveValue('Their title'));
    expect(within(dialog).getByLabelText('Status')).toHaveValue('Review');
    expect(within(dialog).queryByTestId('stale-version')).not.toBeInTheDocument();
  });
});
