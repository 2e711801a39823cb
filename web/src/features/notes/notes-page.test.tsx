import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { makeUser } from '../../test/fixtures';
import { type Handler, mockApi } from '../../test/mock-api';
import { renderApp } from '../../test/render';
import { EMPTY_NOTE_FILTERS, filterNotes, type NoteEntry, todayIso } from './api';

function entry(
  id: string,
  entry_date: string,
  content: string,
  created = `${entry_date}T09:00:00.000Z`,
): NoteEntry {
  return { id, user_id: 'u1', content, entry_date, created_at: created, updated_at: created };
}

const ENTRIES = [
  entry('n5', '2026-03-05', 'Board meeting prep'),
  entry('n4', '2026-03-04', 'Hiring plan for the CFO role'),
  entry('n3', '2026-03-03', 'Quarterly REVIEW with finance'),
  entry('n2', '2026-03-02', 'Coffee with the product team'),
  entry('n1', '2026-03-01', 'Started the new journal'),
];

function setup(entries: NoteEntry[] = ENTRIES, extra: Record<string, Handler> = {}) {
  const api = mockApi({
    'GET /api/users/me': { body: makeUser() },
    'GET /api/journals/': { body: entries },
    ...extra,
  });
  renderApp({ path: '/app/notes', token: 'tok' });
  return api;
}

const shown = () => screen.getAllByTestId('note-content').map((el) => el.textContent?.trim());

describe('filterNotes', () => {
  it('searches content case-insensitively', () => {
    const out = filterNotes(ENTRIES, { ...EMPTY_NOTE_FILTERS, search: 'review' });
    expect(out.map((e) => e.id)).toEqual(['n3']);
  });

  it('keeps the whole from and to days (inclusive range)', () => {
    const out = filterNotes(ENTRIES, { ...EMPTY_NOTE_FILTERS, from: '2026-03-02', to: '2026-03-04' });
    expect(out.map((e) => e.id)).toEqual(['n4', 'n3', 'n2']);
  });

  it('sorts newest or oldest first, by day then by time written', () => {
    const sameDay = [
      entry('a', '2026-03-01', 'morning', '2026-03-01T08:00:00.000Z'),
      entry('b', '2026-03-01', 'evening', '2026-03-01T20:00:00.000Z'),
      entry('c', '2026-03-02', 'next day'),
    ];
    expect(filterNotes(sameDay, EMPTY_NOTE_FILTERS).map((e) => e.id)).toEqual(['c', 'b', 'a']);
    expect(filterNotes(sameDay, { ...EMPTY_NOTE_FILTERS, sort: 'oldest' }).map((e) => e.id)).toEqual([
      'a',
      'b',
      'c',
    ]);
  });
});

describe('notes page', () => {
  it('loads skip 0 / limit 100, newest first, grouped by day', async () => {
    const { callsTo } = setup();
    expect(await screen.findByText('Board meeting prep')).toBeInTheDocument();
    const call = callsTo('GET', '/api/journals/')[0];
    expect(call.search.get('skip')).toBe('0');
    expect(call.search.get('limit')).toBe('100');
    expect(call.search.get('sort')).toBe('newest');
    expect(shown()[0]).toBe('Board meeting prep');
    expect(screen.getAllByRole('heading', { level: 2 })).toHaveLength(5);
  });

  it('shows a friendly empty state with no entries', async () => {
    setup([]);
    expect(await screen.findByText('Your journal is empty.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Write your first entry' })).toBeInTheDocument();
  });

  it('filters by text search (case-insensitive) and sends it to the server', async () => {
    const { callsTo } = setup();
    await screen.findByText('Board meeting prep');
    await userEvent.type(screen.getByLabelText('Search'), 'review');
    await waitFor(() => expect(shown()).toEqual(['Quarterly REVIEW with finance']));
    await waitFor(() =>
      expect(callsTo('GET', '/api/journals/').some((c) => c.search.get('search') === 'review')).toBe(true),
    );
    await userEvent.clear(screen.getByLabelText('Search'));
    await userEvent.type(screen.getByLabelText('Search'), 'no such words');
    expect(await screen.findByText('No entries match these filters.')).toBeInTheDocument();
  });

  it('filters by date range, both boundary days included', async () => {
    const { callsTo } = setup();
    await screen.findByText('Board meeting prep');
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-03-02' } });
    fireEvent.change(screen.getByLabelText('To'), { target: { value: '2026-03-04' } });
    await waitFor(() =>
      expect(shown()).toEqual([
        'Hiring plan for the CFO role',
        'Quarterly REVIEW with finance',
        'Coffee with the product team',
      ]),
    );
    await waitFor(() => {
      const last = callsTo('GET', '/api/journals/').at(-1)!;
      expect(last.search.get('from')).toBe('2026-03-02');
      expect(last.search.get('to')).toBe('2026-03-04');
    });
  });

  it('sorts oldest first', async () => {
    const { callsTo } = setup();
    await screen.findByText('Board meeting prep');
    await userEvent.selectOptions(screen.getByLabelText('Sort'), 'oldest');
    await waitFor(() => expect(shown()[0]).toBe('Started the new journal'));
    expect(shown().at(-1)).toBe('Board meeting prep');
    await waitFor(() => expect(callsTo('GET', '/api/journals/').at(-1)!.search.get('sort')).toBe('oldest'));
  });

  it('disables Save while the content is blank, then creates the entry dated today', async () => {
    const created = entry('n9', todayIso(), '# Big win');
    const { callsTo } = setup(ENTRIES, { 'POST /api/journals/': { status: 201, body: created } });
    await userEvent.click(await screen.findByRole('button', { name: 'New entry' }));
    const dialog = await screen.findByRole('dialog');
    const save = within(dialog).getByRole('button', { name: 'Save entry' });
    expect(save).toBeDisabled();
    expect(within(dialog).getByLabelText('Entry date')).toHaveValue(todayIso());
    await userEvent.type(within(dialog).getByLabelText('Content'), '   ');
    expect(save).toBeDisabled();
    await userEvent.type(within(dialog).getByLabelText('Content'), '# Big win');
    expect(save).toBeEnabled();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Preview' }));
    expect(await within(dialog).findByRole('heading', { name: 'Big win' })).toBeInTheDocument();
    await userEvent.click(save);
    await waitFor(() => expect(callsTo('POST', '/api/journals/')).toHaveLength(1));
    expect(callsTo('POST', '/api/journals/')[0].body).toEqual({
      content: '   # Big win',
      entry_date: todayIso(),
    });
    expect(await screen.findByText('Note entry created.')).toBeInTheDocument();
  });

  it('edits an entry with PUT and says so', async () => {
    const { callsTo } = setup(ENTRIES, {
      'PUT /api/journals/n5': { body: { ...ENTRIES[0], content: 'Board meeting done' } },
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Edit entry of 2026-03-05' }));
    const dialog = await screen.findByRole('dialog');
    const content = within(dialog).getByLabelText('Content');
    expect(content).toHaveValue('Board meeting prep');
    await userEvent.clear(content);
    await userEvent.type(content, 'Board meeting done');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(callsTo('PUT', '/api/journals/n5')).toHaveLength(1));
    expect(callsTo('PUT', '/api/journals/n5')[0].body).toEqual({
      content: 'Board meeting done',
      entry_date: '2026-03-05',
    });
    expect(await screen.findByText('Note entry updated.')).toBeInTheDocument();
  });

  it('deletes after confirmation, and reports a failure', async () => {
    let fail = true;
    const { callsTo } = setup(ENTRIES, {
      'DELETE /api/journals/n5': () => (fail ? { status: 500, body: { detail: 'boom' } } : { status: 204 }),
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Delete entry of 2026-03-05' }));
    const confirm = await screen.findByRole('alertdialog');
    await userEvent.click(within(confirm).getByRole('button', { name: 'Delete entry' }));
    expect(await screen.findByText('Error creating/updating/deleting entry.')).toBeInTheDocument();
    fail = false;
    await userEvent.click(within(confirm).getByRole('button', { name: 'Delete entry' }));
    expect(await screen.findByText('Note entry deleted.')).toBeInTheDocument();
    expect(callsTo('DELETE', '/api/journals/n5')).toHaveLength(2);
  });
});
