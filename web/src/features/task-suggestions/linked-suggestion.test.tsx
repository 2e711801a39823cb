import type { TTaskSuggestion } from '@cc/contract';
import { screen, within } from '@testing-library/react';
import { expect, it } from 'vitest';
import { makeUser } from '../../test/fixtures';
import { mockApi } from '../../test/mock-api';
import { renderApp } from '../../test/render';

const suggestion: TTaskSuggestion = {
  id: 'sug-1',
  title: 'Call the top ten customers',
  description: null,
  assignee_user_id: 'user-ceo',
  priority: 'High',
  due_date: null,
  llm_context: null,
  rejection_reason: null,
  status: 'pending',
  source_type: null,
  source_id: null,
  citations: [],
  organization_id: null,
  created_at: '2026-03-01T00:00:00.000Z',
  updated_at: '2026-03-01T00:00:00.000Z',
};

function open(path: string) {
  mockApi({
    'GET /api/users/me': { body: makeUser({ id: 'user-ceo', user_level: 'ceo' }) },
    'GET /api/tasks': { body: [] },
    'GET /api/organizations': { body: [] },
    'GET /api/contacts/assignable': { body: [] },
    'GET /api/task-suggestions/': { body: [suggestion] },
  });
  renderApp({ path, token: 'tok' });
}

it('?suggestion=<id> (a citation link) opens the review with that suggestion', async () => {
  open('/app/my-tasks?suggestion=sug-1');
  const dialog = await screen.findByRole('dialog');
  expect(within(dialog).getByDisplayValue('Call the top ten customers')).toBeInTheDocument();
});

it('a suggestion no longer waiting shows that the record is not available, no review', async () => {
  open('/app/my-tasks?suggestion=sug-gone');
  expect(await screen.findByText('This record is not available')).toBeInTheDocument();
  expect(screen.queryByRole('dialog')).toBeNull();
});
