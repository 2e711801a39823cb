import type { TTask } from '@cc/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, it } from 'vitest';
import { makeUser } from '../../test/fixtures';
import { mockApi } from '../../test/mock-api';
import { renderApp } from '../../test/render';

const task: TTask = {
  id: 'task-9',
  title: 'Board deck',
  description: null,
  priority: 'High',
  status: 'To Do',
  due_date: '2026-06-10',
  notes: null,
  assigned_to_user_id: 'user-ceo',
  created_by: 'user-ceo',
  assigned_to_user: null,
  created_by_user: null,
  shared_org_ids: [],
  goal_id: null,
  can_edit: true,
  can_delete: true,
  can_assign: true,
  created_at: '2026-06-01T00:00:00.000Z',
  updated_at: '2026-06-01T00:00:00.000Z',
};

it('opens the task a link names (/app/my-tasks?task=…) to read, with Edit opening the form', async () => {
  mockApi({
    'GET /api/users/me': { body: makeUser({ id: 'user-ceo', user_level: 'ceo' }) },
    'GET /api/tasks': { body: [] },
    'GET /api/tasks/task-9': { body: task },
    'GET /api/organizations': { body: [] },
    'GET /api/contacts/assignable': { body: [] },
  });
  renderApp({ path: '/app/my-tasks?task=task-9', token: 'tok' });
  const read = await screen.findByRole('dialog', { name: 'Board deck' });
  // Fields as text, no form: nothing to type in, nothing selected.
  expect(within(read).queryAllByRole('textbox')).toHaveLength(0);
  expect(within(read).getByText('To Do')).toBeInTheDocument();
  expect(within(read).getByText('High')).toBeInTheDocument();
  expect(within(read).getByText('Due date').nextElementSibling).toHaveTextContent(/2026/);
  await userEvent.click(within(read).getByRole('button', { name: 'Edit' }));
  const form = await screen.findByRole('dialog', { name: 'Edit task' });
  expect(within(form).getByLabelText('Title')).toHaveValue('Board deck');
  expect(screen.queryByRole('dialog', { name: 'Board deck' })).toBeNull();
});

it('a task the reader may not edit opens to read without an Edit button', async () => {
  mockApi({
    'GET /api/users/me': { body: makeUser({ id: 'user-ceo', user_level: 'ceo' }) },
    'GET /api/tasks': { body: [] },
    'GET /api/tasks/task-9': { body: { ...task, can_edit: false } },
    'GET /api/organizations': { body: [] },
    'GET /api/contacts/assignable': { body: [] },
  });
  renderApp({ path: '/app/my-tasks?task=task-9', token: 'tok' });
  const read = await screen.findByRole('dialog', { name: 'Board deck' });
  expect(within(read).queryByRole('button', { name: 'Edit' })).toBeNull();
  await userEvent.click(within(read).getAllByRole('button', { name: 'Close' })[0]);
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
});

it('a link to a task the reader cannot see shows "This record is not available", not the task', async () => {
  mockApi({
    'GET /api/users/me': { body: makeUser({ id: 'user-ceo', user_level: 'ceo' }) },
    'GET /api/tasks': { body: [] },
    'GET /api/tasks/task-x': { status: 404, body: { detail: 'Task not found' } },
    'GET /api/organizations': { body: [] },
    'GET /api/contacts/assignable': { body: [] },
  });
  const { router } = renderApp({ path: '/app/my-tasks?task=task-x', token: 'tok' });
  expect(await screen.findByText('This record is not available')).toBeInTheDocument();
  expect(screen.queryByRole('dialog')).toBeNull();
  await waitFor(() => expect(router.state.location.search).toBe(''));
});
