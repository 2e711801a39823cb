import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, it } from 'vitest';
import { makeUser } from '../../test/fixtures';
import { mockApi } from '../../test/mock-api';
import { renderApp } from '../../test/render';
import type { NoteEntry } from './api';

const note: NoteEntry = {
  id: 'n-9',
  user_id: 'u1',
  content: 'Board offsite decisions',
  entry_date: '2026-03-05',
  created_at: '2026-03-05T09:00:00.000Z',
  updated_at: '2026-03-05T09:00:00.000Z',
};

it('?note=<id> (a citation link) opens that entry to read; Edit opens the editor', async () => {
  mockApi({
    'GET /api/users/me': { body: makeUser() },
    'GET /api/journals/': { body: [] },
    'GET /api/journals/n-9': { body: note },
  });
  const { router } = renderApp({ path: '/app/notes?note=n-9', token: 'tok' });
  const read = await screen.findByRole('dialog', { name: /^Note of / });
  expect(within(read).getByText('Board offsite decisions')).toBeInTheDocument();
  expect(within(read).queryAllByRole('textbox')).toHaveLength(0);
  await waitFor(() => expect(router.state.location.search).toBe(''));
  await userEvent.click(within(read).getByRole('button', { name: 'Edit' }));
  const dialog = await screen.findByRole('dialog', { name: 'Edit note entry' });
  expect(within(dialog).getByRole('textbox', { name: /content/i })).toHaveValue('Board offsite decisions');
});

it("a link to someone else's note (404) shows that the record is not available", async () => {
  mockApi({
    'GET /api/users/me': { body: makeUser() },
    'GET /api/journals/': { body: [] },
    'GET /api/journals/n-x': { status: 404, body: { detail: 'Journal entry not found' } },
  });
  renderApp({ path: '/app/notes?note=n-x', token: 'tok' });
  expect(await screen.findByText('This record is not available')).toBeInTheDocument();
  expect(screen.queryByRole('dialog')).toBeNull();
});
