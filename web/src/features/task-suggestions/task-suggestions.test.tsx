import type { TTaskSuggestion, TUser } from '@cc/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { makeUser } from '../../test/fixtures';
import { type Handler, mockApi } from '../../test/mock-api';
import { renderApp } from '../../test/render';

function makeSuggestion(over: Partial<TTaskSuggestion> = {}): TTaskSuggestion {
  return {
    id: 'sug-1',
    title: 'Close the EU customers signed gap on “Expand to Europe”',
    description: 'Agree the actions.',
    assignee_user_id: 'user-ceo',
    priority: 'High',
    due_date: '2026-03-10',
    llm_context: 'KPI “EU customers signed” is at 20% of its target, below the 45% expected by today.',
    rejection_reason: null,
    status: 'pending',
    source_type: 'kpi',
    source_id: 'kpi-1',
    citations: [{ type: 'goal', id: 'goal-1', title: 'Expand to Europe', url: '/app/strategy?goal=goal-1' }],
    organization_id: 'org-1',
    created_at: '2026-03-01T00:00:00.000Z',
    updated_at: '2026-03-01T00:00:00.000Z',
    ...over,
  };
}

const ceo = () => makeUser({ id: 'user-ceo', first_name: 'Olivia', last_name: 'Chen', user_level: 'ceo' });

function setup(
  me: TUser,
  suggestions: TTaskSuggestion[] | Handler = [],
  extra: Record<string, Handler> = {},
) {
  const api = mockApi({
    'GET /api/users/me': { body: me },
    'GET /api/tasks': { body: [] },
    'GET /api/organizations': { body: [] },
    'GET /api/contacts/assignable': {
      body: [
        { id: 'user-maya', name: 'Maya Patel', email: 'maya@x.co', role: null, organization_ids: ['org-1'] },
      ],
    },
    'GET /api/task-suggestions/': Array.isArray(suggestions) ? { body: suggestions } : suggestions,
    ...extra,
  });
  renderApp({ path: '/app/my-tasks', token: 'tok' });
  return api;
}

describe('Generate tasks button', () => {
  it('goes idle → generating → "Tasks ready!" → idle after 4 seconds', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const { callsTo } = setup(ceo(), [], {
      'POST /api/task-suggestions/generate': async () => {
        await gate;
        return { body: { suggestions: [makeSuggestion()], message: '1 new suggestion' } };
      },
    });
    const button = await screen.findByRole('button', { name: 'Generate tasks' }, { timeout: 10_000 });
    expect(button).toBeEnabled();
    await userEvent.click(button);
    expect(await screen.findByRole('button', { name: 'Generating tasks…' })).toBeDisabled();
    release();
    expect(await screen.findByRole('button', { name: 'Tasks ready!' })).toBeInTheDocument();
    expect(callsTo('POST', '/api/task-suggestions/generate')).toHaveLength(1);
    // Still "Tasks ready!" a moment later, idle again after 4 s.
    await new Promise((r) => setTimeout(r, 1000));
    expect(screen.getByRole('button', { name: 'Tasks ready!' })).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Generate tasks' }, { timeout: 4500 })).toBeEnabled();
  }, 25_000);

  it('toasts "No new suggestions" and "Failed to generate tasks"', async () => {
    let fail = false;
    setup(ceo(), [], {
      'POST /api/task-suggestions/generate': () =>
        fail
          ? { status: 500, body: { detail: 'Model down' } }
          : { body: { suggestions: [], message: 'No new suggestions' } },
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Generate tasks' }, { timeout: 10_000 }));
    expect(await screen.findByText('No new suggestions')).toBeInTheDocument();
    // Nothing is ready: the button does not say "Tasks ready!" beside the toast, it is idle at once.
    expect(screen.queryByRole('button', { name: 'Tasks ready!' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Generate tasks' })).toBeEnabled();
    fail = true;
    await userEvent.click(screen.getByRole('button', { name: 'Generate tasks' }));
    expect(await screen.findByText('Failed to generate tasks')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Generate tasks' })).toBeEnabled();
  }, 25_000);

  it('is not shown to other users, who never fetch suggestions', async () => {
    const { callsTo } = setup(makeUser({ id: 'user-maya', user_level: 'user' }));
    expect(await screen.findByText('No tasks match the current filters.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Generate tasks' })).not.toBeInTheDocument();
    expect(callsTo('GET', '/api/task-suggestions/')).toHaveLength(0);
  });
});

describe('review dialog', () => {
  const two = () => [
    makeSuggestion(),
    makeSuggestion({
      id: 'sug-2',
      title: 'Find an owner for “Draft hiring plan”',
      priority: 'Medium',
      assignee_user_id: null,
      llm_context: 'Task “Draft hiring plan” is not assigned to anyone.',
      // Its task is gone or hidden since: nothing is cited.
      citations: [],
    }),
  ];

  it('shows the banner; edits and approves the ticked suggestions', async () => {
    const { callsTo } = setup(ceo(), two(), {
      'POST /api/task-suggestions/approve': { body: { tasks: [], message: '1 task created' } },
    });
    expect(
      await screen.findByText('2 AI task suggestions are ready for review', {}, { timeout: 10_000 }),
    ).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Review suggestions' }));
    const dialog = await screen.findByRole('dialog', { name: 'Review AI task suggestions' });
    const first = within(dialog).getByRole('group', { name: /Suggestion 1/ });
    expect(within(first).getByText(/is at 20% of its target/)).toBeInTheDocument();
    // The record it came from, as a chip that opens it (issue 20 §3).
    expect(within(first).getByRole('link', { name: 'Goal: Expand to Europe' })).toHaveAttribute(
      'href',
      '/app/strategy?goal=goal-1',
    );
    const title = within(first).getByLabelText('Title');
    await userEvent.clear(title);
    await userEvent.type(title, 'Win two EU design partners');
    await userEvent.selectOptions(within(first).getByLabelText('Priority'), 'Urgent');
    await userEvent.selectOptions(within(first).getByLabelText('Assignee'), 'user-maya');
    const second = within(dialog).getByRole('group', { name: /Suggestion 2/ });
    expect(within(second).getByText('No workspace record used')).toBeInTheDocument();
    await userEvent.click(within(second).getByLabelText('Approve this suggestion'));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Approve selected (1)' }));
    expect(await screen.findByText('1 task created')).toBeInTheDocument();
    expect(callsTo('POST', '/api/task-suggestions/approve')[0].body).toEqual([
      {
        id: 'sug-1',
        title: 'Win two EU design partners',
        description: 'Agree the actions.',
        priority: 'Urgent',
        due_date: '2026-03-10',
        assignee_user_id: 'user-maya',
      },
    ]);
  }, 25_000);

  it('needs a title to approve, and toasts "Unable to approve tasks" on failure', async () => {
    const { callsTo } = setup(ceo(), [makeSuggestion()], {
      'POST /api/task-suggestions/approve': { status: 409, body: { detail: 'Nope' } },
    });
    await userEvent.click(
      await screen.findByRole('button', { name: 'Review suggestions' }, { timeout: 10_000 }),
    );
    const dialog = await screen.findByRole('dialog');
    await userEvent.clear(within(dialog).getByLabelText('Title'));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Approve selected (1)' }));
    expect(await within(dialog).findByText('Title is required')).toBeInTheDocument();
    expect(callsTo('POST', '/api/task-suggestions/approve')).toHaveLength(0);
    await userEvent.type(within(dialog).getByLabelText('Title'), 'Fixed');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Approve selected (1)' }));
    expect(await screen.findByText('Unable to approve tasks')).toBeInTheDocument();
  }, 25_000);

  it('rejects with a non-blank reason; "Failed to reject suggestion" on failure', async () => {
    let fail = false;
    const { callsTo } = setup(ceo(), two(), {
      'POST /api/task-suggestions/sug-2/reject': () =>
        fail ? { status: 500, body: { detail: 'x' } } : { body: { ...two()[1], status: 'rejected' } },
    });
    await userEvent.click(
      await screen.findByRole('button', { name: 'Review suggestions' }, { timeout: 10_000 }),
    );
    const dialog = await screen.findByRole('dialog');
    const second = within(dialog).getByRole('group', { name: /Suggestion 2/ });
    await userEvent.click(within(second).getByRole('button', { name: 'Reject' }));
    // A suggestion being rejected is not approved.
    expect(within(dialog).getByRole('button', { name: 'Approve selected (1)' })).toBeInTheDocument();
    await userEvent.type(within(second).getByLabelText('Reason for rejecting'), '   ');
    await userEvent.click(within(second).getByRole('button', { name: 'Confirm rejection' }));
    expect(
      await within(second).findByText('A reason is required to reject a suggestion.'),
    ).toBeInTheDocument();
    expect(callsTo('POST', '/api/task-suggestions/sug-2/reject')).toHaveLength(0);
    fail = true;
    await userEvent.type(within(second).getByLabelText('Reason for rejecting'), 'Already covered');
    await userEvent.click(within(second).getByRole('button', { name: 'Confirm rejection' }));
    expect(await screen.findByText('Failed to reject suggestion')).toBeInTheDocument();
    fail = false;
    await userEvent.click(within(second).getByRole('button', { name: 'Confirm rejection' }));
    expect(await screen.findByText('Suggestion rejected')).toBeInTheDocument();
    await waitFor(() => expect(callsTo('POST', '/api/task-suggestions/sug-2/reject')).toHaveLength(2));
    expect(callsTo('POST', '/api/task-suggestions/sug-2/reject')[1].body).toEqual({
      reason: 'Already covered',
    });
  }, 25_000);
});
