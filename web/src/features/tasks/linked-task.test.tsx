import type { TTask } from '@cc/contract';
import { screen, waitFor, within } from '@testing-library/react';
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

it('opens the task a link names (/app/my-tasks?task=…), as a brief citation does', async () => {
  mockApi({
    'GET /api/users/me': { body: makeUser({ id: 'user-ceo', user_level: 'ceo' }) },
    'GET /api/tasks': { body: [] },
    'GET /api/tasks/task-9': { body: task },
    'GET /api/organizations': { body: [] },
    'GET /api/contacts/assignable': { body: [] },
  });
  renderApp({ path: '/app/my-tasks?task=task-9', token: 'tok' });
  const dialog = await screen.findByRole('dialog');
  expect(within(dialog).getByLabelText('Title')).toHaveValue('Board deck');
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
