import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { makeUser } from '../../test/fixtures';
import { mockApi } from '../../test/mock-api';
import { renderApp } from '../../test/render';
import type { NoteEntry } from './api';

const OPENED = '2026-03-05T09:00:00.000Z';
const THEIRS = '2026-03-05T11:15:00.000Z';
const mine: NoteEntry = {
  id: 'n5',
  user_id: 'u1',
  content: 'Board meeting prep',
  entry_date: '2026-03-05',
  created_at: OPENED,
  updated_at: OPENED,
};
const theirs: NoteEntry = { ...mine, content: 'Board meeting prep, from the other tab', updated_at: THEIRS };

function setup() {
  let saves = 0;
  const api = mockApi({
    'GET /api/users/me': { body: makeUser() },
    'GET /api/journals/': { body: [mine] },
    'GET /api/journals/n5': { body: theirs },
    'PUT /api/journals/n5': () => {
      saves += 1;
      return saves === 1
        ? { status: 412, body: { detail: 'This item was changed by someone else. Reload it.' } }
        : { body: { ...theirs, content: 'Decisions taken', updated_at: '2026-03-05T12:00:00.000Z' } };
    },
  });
  renderApp({ path: '/app/notes', token: 'tok' });
  return api;
}

async function typeAndSave(text: string) {
  await userEvent.click(await screen.findByRole('button', { name: 'Edit entry of 2026-03-05' }));
  const dialog = await screen.findByRole('dialog');
  const content = within(dialog).getByLabelText('Content');
  await userEvent.clear(content);
  await userEvent.type(content, text);
  await userEvent.click(within(dialog).getByRole('button', { name: 'Save changes' }));
  return dialog;
}

describe('note edit: the entry changed in another tab', () => {
  it('keeps the typed text beside the fresh version, and saves it on top of that version', async () => {
    const { callsTo } = setup();
    const dialog = await typeAndSave('Decisions taken');

    const banner = await within(dialog).findByTestId('stale-version');
    expect(banner).toHaveTextContent('This item was changed by someone else');
    expect(within(banner).getByText(theirs.content)).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Content')).toHaveValue('Decisions taken');
    expect(callsTo('PUT', '/api/journals/n5')[0].headers['If-Match']).toBe(`"${OPENED}"`);
    // Not an error toast: the dialog explains it.
    expect(screen.queryByText('Error creating/updating/deleting entry.')).not.toBeInTheDocument();

    await userEvent.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Note entry updated.')).toBeInTheDocument();
    const second = callsTo('PUT', '/api/journals/n5')[1];
    expect(second.headers['If-Match']).toBe(`"${THEIRS}"`);
    expect(second.body).toEqual({ content: 'Decisions taken', entry_date: '2026-03-05' });
  });

  it('"Use their version" loads the fresh text into the editor', async () => {
    setup();
    const dialog = await typeAndSave('Decisions taken');
    await userEvent.click(await within(dialog).findByRole('button', { name: 'Use their version' }));
    await waitFor(() => expect(within(dialog).getByLabelText('Content')).toHaveValue(theirs.content));
    expect(within(dialog).queryByTestId('stale-version')).not.toBeInTheDocument();
  });
});
