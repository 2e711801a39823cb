import type { TTask, TUser } from '@cc/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { makeOrg, makeUser } from '../../test/fixtures';
import { type Handler, mockApi } from '../../test/mock-api';
import { renderApp } from '../../test/render';

function makeTask(over: Partial<TTask> = {}): TTask {
  return {
    id: 'task-1',
    title: 'Close the Series B',
    description: 'Term sheet by March',
    priority: 'High',
    status: 'To Do',
    due_date: '2026-03-01',
    notes: null,
    assigned_to_user_id: 'user-maya',
    assigned_to_user: { id: 'user-maya', name: 'Maya Patel', email: 'maya@x.co' },
    created_by: 'user-ceo',
    created_by_user: { id: 'user-ceo', name: 'Olivia Chen', email: 'ceo@x.co' },
    shared_org_ids: ['org-1'],
    goal_id: null,
    can_edit: true,
    can_delete: true,
    can_assign: true,
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
    ...over,
  };
}

const ceo = () => makeUser({ id: 'user-ceo', first_name: 'Olivia', last_name: 'Chen', user_level: 'ceo' });

function setup(me: TUser, tasks: TTask[] | Handler = [], extra: Record<string, Handler> = {}) {
  const api = mockApi({
    'GET /api/users/me': { body: me },
    'GET /api/tasks': Array.isArray(tasks) ? { body: tasks } : tasks,
    'GET /api/organizations': { body: [makeOrg()] },
    // The task dialog's goal picker reads the goals (only id and title are used).
    'GET /api/strategic-goals': { body: [{ id: 'goal-1', title: 'Grow revenue' }] },
    'GET /api/contacts/assignable': {
      body: [
        { id: 'user-maya', name: 'Maya Patel', email: 'maya@x.co', role: null, organization_ids: ['org-1'] },
      ],
    },
    ...extra,
  });
  renderApp({ path: '/app/my-tasks', token: 'tok' });
  return api;
}

describe('tasks list', () => {
  it('shows a task with its details', async () => {
    setup(ceo(), [makeTask()]);
    const card = await screen.findByRole('article', { name: 'Close the Series B' });
    expect(within(card).getByText('Term sheet by March')).toBeInTheDocument();
    expect(within(card).getByText('High')).toBeInTheDocument();
    expect(within(card).getByTestId('task-status')).toHaveTextContent('To Do');
    expect(within(card).getByText('Maya Patel')).toBeInTheDocument();
    expect(within(card).getByText('Olivia Chen')).toBeInTheDocument();
    expect(await within(card).findByText('Northwind Ventures')).toBeInTheDocument();
  });

  it('sends the filters; Done is hidden unless "Include completed tasks" is ticked', async () => {
    const tasks = [makeTask(), makeTask({ id: 'task-2', title: 'Old task', status: 'Done' })];
    const { callsTo } = setup(ceo(), (call) => ({
      body:
        call.search.get('include_completed') === 'true' ? tasks : tasks.filter((t) => t.status !== 'Done'),
    }));
    expect(await screen.findByText('Close the Series B')).toBeInTheDocument();
    expect(screen.queryByText('Old task')).not.toBeInTheDocument();
    expect(callsTo('GET', '/api/tasks')[0].search.get('include_completed')).toBe('false');

    await userEvent.click(screen.getByLabelText('Include completed tasks'));
    expect(await screen.findByText('Old task')).toBeInTheDocument();

    await screen.findByRole('option', { name: 'Maya Patel' });
    await userEvent.selectOptions(screen.getByLabelText('Status'), 'In Progress');
    await userEvent.selectOptions(screen.getByLabelText('Priority'), 'Urgent');
    await userEvent.selectOptions(screen.getByLabelText('Assigned to'), 'user-maya');
    await userEvent.type(screen.getByLabelText('Search tasks'), 'series');
    await waitFor(() =>
      expect(Object.fromEntries(callsTo('GET', '/api/tasks').at(-1)!.search)).toEqual({
        search: 'series',
        status: 'In Progress',
        priority: 'Urgent',
        assignedTo: 'user-maya',
        include_completed: 'true',
      }),
    );
  });

  it('choosing the status Done ticks "Include completed tasks" and says so; unticking hides Done', async () => {
    const done = makeTask({ id: 'task-2', title: 'Old task', status: 'Done' });
    const { callsTo } = setup(ceo(), (call) => ({
      body: call.search.get('status') === 'Done' ? [done] : [makeTask()],
    }));
    expect(await screen.findByText('Close the Series B')).toBeInTheDocument();
    await userEvent.selectOptions(screen.getByLabelText('Status'), 'Done');
    expect(await screen.findByText('Old task')).toBeInTheDocument();
    expect(screen.getByLabelText('Include completed tasks')).toBeChecked();
    expect(screen.getByText('Ticked to show Done tasks.')).toBeInTheDocument();
    expect(callsTo('GET', '/api/tasks').at(-1)!.search.get('include_completed')).toBe('true');

    await userEvent.click(screen.getByLabelText('Include completed tasks'));
    expect(await screen.findByText('No tasks match the current filters.')).toBeInTheDocument();
    expect(screen.queryByText('Old task')).not.toBeInTheDocument();
    expect(screen.queryByText('Ticked to show Done tasks.')).not.toBeInTheDocument();
  });

  it('offers the assignee filter to ceo only', async () => {
    setup(makeUser({ user_level: 'user' }), [makeTask()]);
    expect(await screen.findByText('Close the Series B')).toBeInTheDocument();
    expect(screen.getByLabelText('Priority')).toBeInTheDocument();
    expect(screen.queryByLabelText('Assigned to')).not.toBeInTheDocument();
  });

  it('shows the empty and failure texts', async () => {
    setup(ceo(), { status: 500, body: { detail: 'database down' } });
    expect(await screen.findByText('Failed to load tasks: database down')).toBeInTheDocument();
  });

  it('shows "No tasks match the current filters." when nothing matches', async () => {
    setup(ceo(), []);
    expect(await screen.findByText('No tasks match the current filters.')).toBeInTheDocument();
  });

  it('disables or hides the controls the server flags deny', async () => {
    setup(makeUser({ user_level: 'user' }), [
      makeTask({ id: 'ro', title: 'Read only', can_edit: false, can_delete: false, can_assign: false }),
      makeTask({ id: 'ed', title: 'Editable', can_edit: true, can_delete: false, can_assign: false }),
    ]);
    const ro = await screen.findByRole('article', { name: 'Read only' });
    expect(within(ro).getByRole('button', { name: 'Edit Read only' })).toBeDisabled();
    expect(within(ro).getByRole('button', { name: 'Change status of Read only' })).toBeDisabled();
    expect(within(ro).queryByRole('button', { name: /Assign|Share|Delete/ })).not.toBeInTheDocument();
    const ed = screen.getByRole('article', { name: 'Editable' });
    expect(within(ed).getByRole('button', { name: 'Edit Editable' })).toBeEnabled();
    expect(within(ed).queryByRole('button', { name: /Delete/ })).not.toBeInTheDocument();
  });
});

describe('task forms', () => {
  it('create: requires a title, offers seven statuses and lowercase priorities, sends the form', async () => {
    const { callsTo } = setup(ceo(), [], { 'POST /api/tasks': { status: 201, body: makeTask() } });
    await userEvent.click(await screen.findByRole('button', { name: 'New task' }));
    const dialog = await screen.findByRole('dialog');
    const status = within(dialog).getByLabelText('Status');
    expect(
      within(status)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['To Do', 'Pending', 'In Progress', 'Done', 'Review', 'Cancelled', 'Bottleneck']);
    expect(status).toHaveValue('To Do');
    const priority = within(dialog).getByLabelText('Priority');
    expect(
      within(priority)
        .getAllByRole('option')
        .map((o) => (o as HTMLOptionElement).value),
    ).toEqual(['low', 'medium', 'high']);
    expect(priority).toHaveValue('medium');

    await userEvent.click(within(dialog).getByRole('button', { name: 'Create task' }));
    expect(await within(dialog).findByText('Title is required')).toBeInTheDocument();
    expect(callsTo('POST', '/api/tasks')).toHaveLength(0);

    await userEvent.type(within(dialog).getByLabelText('Title'), 'Board deck');
    await screen.findByRole('option', { name: 'Maya Patel' });
    await userEvent.selectOptions(within(dialog).getByLabelText('Assignee'), 'user-maya');
    await userEvent.click(within(dialog).getByLabelText('Northwind Ventures'));
    await screen.findByRole('option', { name: 'Grow revenue' });
    await userEvent.selectOptions(within(dialog).getByLabelText('Goal'), 'goal-1');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create task' }));
    await waitFor(() => expect(callsTo('POST', '/api/tasks')).toHaveLength(1));
    expect(callsTo('POST', '/api/tasks')[0].body).toEqual({
      title: 'Board deck',
      description: null,
      due_date: null,
      notes: null,
      priority: 'medium',
      status: 'To Do',
      assigned_to_user_id: 'user-maya',
      shared_org_ids: ['org-1'],
      goal_id: 'goal-1',
    });
  });

  it('edit: offers six statuses (no Pending) and the four priorities', async () => {
    const { callsTo } = setup(ceo(), [makeTask()], { 'PUT /api/tasks/task-1': { body: makeTask() } });
    await userEvent.click(await screen.findByRole('button', { name: 'Edit Close the Series B' }));
    const dialog = await screen.findByRole('dialog');
    const status = within(dialog).getByLabelText('Status');
    expect(
      within(status)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['To Do', 'In Progress', 'Done', 'Review', 'Cancelled', 'Bottleneck']);
    expect(within(within(dialog).getByLabelText('Priority')).getAllByRole('option')).toHaveLength(4);
    await userEvent.selectOptions(status, 'Review');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save task' }));
    await waitFor(() => expect(callsTo('PUT', '/api/tasks/task-1')).toHaveLength(1));
    expect(callsTo('PUT', '/api/tasks/task-1')[0].body).toMatchObject({ status: 'Review', priority: 'High' });
  });

  it('edit: the goal picker shows the linked goal, keeps one it does not list, and unlinks', async () => {
    const { callsTo } = setup(
      ceo(),
      [makeTask({ goal_id: 'goal-1' }), makeTask({ id: 'task-2', title: 'Hidden goal', goal_id: 'goal-x' })],
      {
        'PUT /api/tasks/task-1': { body: makeTask() },
        'PUT /api/tasks/task-2': { body: makeTask({ id: 'task-2' }) },
      },
    );
    await userEvent.click(await screen.findByRole('button', { name: 'Edit Close the Series B' }));
    let dialog = await screen.findByRole('dialog');
    await within(dialog).findByRole('option', { name: 'Grow revenue' });
    expect(within(dialog).getByLabelText('Goal')).toHaveValue('goal-1');
    await userEvent.selectOptions(within(dialog).getByLabelText('Goal'), '');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save task' }));
    await waitFor(() => expect(callsTo('PUT', '/api/tasks/task-1')).toHaveLength(1));
    expect(callsTo('PUT', '/api/tasks/task-1')[0].body).toMatchObject({ goal_id: null });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    await userEvent.click(await screen.findByRole('button', { name: 'Edit Hidden goal' }));
    dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByLabelText('Goal')).toHaveValue('goal-x');
    expect(within(dialog).getByRole('option', { name: 'The goal it serves now' })).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save task' }));
    await waitFor(() => expect(callsTo('PUT', '/api/tasks/task-2')).toHaveLength(1));
    expect(callsTo('PUT', '/api/tasks/task-2')[0].body).toMatchObject({ goal_id: 'goal-x' });
  });

  it('status menu offers six statuses; assign, share and delete call their endpoints', async () => {
    const { callsTo } = setup(ceo(), [makeTask({ assigned_to_user_id: null, assigned_to_user: null })], {
      'PUT /api/tasks/task-1': { body: makeTask({ status: 'Done' }) },
      'PUT /api/tasks/task-1/assign': { body: makeTask() },
      'GET /api/tasks/task-1/shares': { body: [{ id: 'org-1', name: 'Northwind Ventures' }] },
      'POST /api/tasks/task-1/share/orgs': { body: makeTask({ shared_org_ids: [] }) },
      'DELETE /api/tasks/task-1': { status: 204 },
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Change status of Close the Series B' }));
    const items = await screen.findAllByRole('menuitem');
    expect(items.map((i) => i.textContent)).toEqual([
      'To Do',
      'In Progress',
      'Done',
      'Review',
      'Cancelled',
      'Bottleneck',
    ]);
    await userEvent.click(screen.getByRole('menuitem', { name: 'Done' }));
    await waitFor(() => expect(callsTo('PUT', '/api/tasks/task-1')[0]?.body).toEqual({ status: 'Done' }));

    await userEvent.click(screen.getByRole('button', { name: 'Assign Close the Series B' }));
    let dialog = await screen.findByRole('dialog');
    await userEvent.selectOptions(within(dialog).getByLabelText('Assignee'), 'user-maya');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save assignee' }));
    await waitFor(() =>
      expect(callsTo('PUT', '/api/tasks/task-1/assign')[0]?.body).toEqual({
        assigned_to_user_id: 'user-maya',
      }),
    );

    await userEvent.click(screen.getByRole('button', { name: 'Share Close the Series B' }));
    dialog = await screen.findByRole('dialog', { name: 'Share task' });
    const box = await within(dialog).findByLabelText('Northwind Ventures');
    await waitFor(() => expect(box).toBeChecked());
    await userEvent.click(box);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save sharing' }));
    await waitFor(() =>
      expect(callsTo('POST', '/api/tasks/task-1/share/orgs')[0]?.body).toEqual({ ids: [] }),
    );

    await userEvent.click(screen.getByRole('button', { name: 'Delete Close the Series B' }));
    const confirm = await screen.findByRole('alertdialog');
    expect(callsTo('DELETE', '/api/tasks/task-1')).toHaveLength(0);
    await userEvent.click(within(confirm).getByRole('button', { name: 'Delete task' }));
    await waitFor(() => expect(callsTo('DELETE', '/api/tasks/task-1')).toHaveLength(1));
  });
});
