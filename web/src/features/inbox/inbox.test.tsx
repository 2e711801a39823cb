import { INBOX_REASON_REQUIRED, type TInboxItem } from '@cc/contract';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { makeUser } from '../../test/fixtures';
import { type Handler, mockApi } from '../../test/mock-api';
import { renderApp } from '../../test/render';
import { waitingFor } from './inbox-age';
import { INBOX_EMPTY } from './pages/inbox-page';

// The shell's inbox stream: tests push its notes through the handler it registered.
const streams = new Map<string, (msg: { data: unknown }) => void>();
vi.mock('../../lib/event-stream', () => ({
  useEventStream: (path: string | null, opts: { onMessage(m: { data: unknown }): void }) => {
    if (path) streams.set(path, opts.onMessage);
    return path ? 'open' : 'closed';
  },
}));

const hoursAgo = (h: number) => new Date(Date.now() - h * 3_600_000).toISOString();

function makeItem(over: Partial<TInboxItem> = {}): TInboxItem {
  return {
    id: 'item-1',
    kind: 'task_suggestion',
    title: 'Close the Key hires gap',
    summary: 'Two hires behind plan',
    created_at: hoursAgo(3),
    source: { type: 'task_suggestion', id: 'sug-1', url: '/app/my-tasks' },
    assignee_user_id: 'user-ceo',
    details: { title: 'Close the Key hires gap', priority: 'High', based_on: 'KPI "Key hires" is at 2 of 6' },
    ...over,
  };
}

function setup(items: TInboxItem[], extra: Record<string, Handler> = {}, path = '/app/inbox') {
  let current = items;
  const api = mockApi({
    'GET /api/users/me': { body: makeUser({ id: 'user-ceo', user_level: 'ceo' }) },
    'GET /api/inbox/': () => ({ body: { items: current, total: current.length } }),
    'GET /api/inbox/count': () => ({ body: { count: current.length } }),
    'GET /api/contacts/assignable': {
      body: [
        { id: 'user-maya', name: 'Maya Patel', email: 'maya@x.co', role: null, organization_ids: ['org-1'] },
      ],
    },
    'POST /api/inbox/item-1/approve': {
      body: { id: 'item-1', status: 'approved', assignee_user_id: 'user-ceo' },
    },
    'POST /api/inbox/item-1/reject': {
      body: { id: 'item-1', status: 'rejected', assignee_user_id: 'user-ceo' },
    },
    'POST /api/inbox/item-1/delegate': {
      body: { id: 'item-1', status: 'pending', assignee_user_id: 'user-maya' },
    },
    ...extra,
  });
  renderApp({ path, token: 'tok' });
  return { api, setItems: (next: TInboxItem[]) => (current = next) };
}

beforeEach(() => streams.clear());

describe('Inbox page', () => {
  it('shows what each item is, where it came from, what the AI based it on and its age; the top bar counts', async () => {
    setup([
      makeItem(),
      makeItem({
        id: 'item-2',
        kind: 'run_input',
        title: 'Launch plan: waiting for your input',
        summary: 'Ship it?',
        source: { type: 'run', id: 'run-1:0', url: '/app/conversations/conv-1' },
        details: { prompt: 'Ship it?', based_on: null },
      }),
    ]);
    const list = await screen.findByRole('list', { name: 'Waiting items' });
    const [first, second] = within(list).getAllByRole('listitem');
    expect(within(first).getByText('Task suggestion')).toBeInTheDocument();
    expect(within(first).getByText('Close the Key hires gap')).toBeInTheDocument();
    expect(within(first).getByText('KPI "Key hires" is at 2 of 6')).toBeInTheDocument();
    expect(within(first).getByText('3 h')).toBeInTheDocument();
    expect(within(first).getByRole('link', { name: 'Open the suggestions' })).toHaveAttribute(
      'href',
      '/app/my-tasks',
    );
    expect(within(second).getByText('Run waiting for input')).toBeInTheDocument();
    expect(within(second).getByRole('link', { name: 'Open the run' })).toHaveAttribute(
      'href',
      '/app/conversations/conv-1',
    );
    for (const name of ['Approve', 'Edit', 'Reject', 'Delegate']) {
      expect(within(first).getByRole('button', { name })).toBeInTheDocument();
    }
    const main = screen.getByRole('navigation', { name: 'Main' });
    expect(await within(main).findByRole('link', { name: /^Inbox\W*2 waiting$/ })).toBeInTheDocument();
  });

  it('reject asks for a non-blank reason, then sends it', async () => {
    const { api } = setup([makeItem()]);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Reject' }));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText('Reason'), '   ');
    await user.click(within(dialog).getByRole('button', { name: 'Reject' }));
    expect(await within(dialog).findByText(INBOX_REASON_REQUIRED)).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/inbox/item-1/reject')).toHaveLength(0);
    await user.type(within(dialog).getByLabelText('Reason'), 'Not this quarter');
    await user.click(within(dialog).getByRole('button', { name: 'Reject' }));
    await waitFor(() => expect(api.callsTo('POST', '/api/inbox/item-1/reject')).toHaveLength(1));
    expect(api.callsTo('POST', '/api/inbox/item-1/reject')[0].body).toEqual({ reason: 'Not this quarter' });
  });

  it('edit changes the fields and approves with them; a plain approve sends no edits', async () => {
    const { api } = setup([makeItem()]);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog');
    const title = within(dialog).getByLabelText('Title');
    await user.clear(title);
    await user.type(title, 'Hire two engineers');
    await user.selectOptions(within(dialog).getByLabelText('Priority'), 'Urgent');
    await user.click(within(dialog).getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(api.callsTo('POST', '/api/inbox/item-1/approve')).toHaveLength(1));
    expect(api.callsTo('POST', '/api/inbox/item-1/approve')[0].body).toMatchObject({
      edits: { title: 'Hire two engineers', priority: 'Urgent' },
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await user.click(screen.getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(api.callsTo('POST', '/api/inbox/item-1/approve')).toHaveLength(2));
    expect(api.callsTo('POST', '/api/inbox/item-1/approve')[1].body).toEqual({});
  });

  it('a run waiting for input is approved with an answer', async () => {
    const { api } = setup([
      makeItem({
        kind: 'run_input',
        source: { type: 'run', id: 'r:0', url: '/app/run' },
        details: { answer: '' },
      }),
    ]);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Approve' }));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText('Your answer'), 'Yes, ship');
    await user.click(within(dialog).getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(api.callsTo('POST', '/api/inbox/item-1/approve')).toHaveLength(1));
    expect(api.callsTo('POST', '/api/inbox/item-1/approve')[0].body).toEqual({
      edits: { answer: 'Yes, ship' },
    });
  });

  it('a run question asking for an approval is approved in one click: the server sends its answer', async () => {
    const prompt = 'Do you approve this plan? Answer "yes" or describe the changes you want.';
    const { api } = setup([
      makeItem({
        kind: 'run_input',
        title: 'Task Plan with Approval: waiting for your input',
        summary: prompt,
        source: { type: 'run', id: 'r:1', url: '/app/run' },
        details: { prompt, answer: '', based_on: '1. Hire a CFO' },
      }),
    ]);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(api.callsTo('POST', '/api/inbox/item-1/approve')).toHaveLength(1));
    expect(api.callsTo('POST', '/api/inbox/item-1/approve')[0].body).toEqual({});
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('a run question card renders its question and the output it asks about as markdown', async () => {
    setup([
      makeItem({
        kind: 'run_input',
        title: 'Launch plan: waiting for your input',
        summary: 'Ship **the launch plan**?',
        source: { type: 'run', id: 'r:0', url: '/app/run' },
        details: { prompt: 'Ship **the launch plan**?', based_on: '## Plan\n\n- Hire a *CFO*' },
      }),
    ]);
    const card = (await screen.findAllByRole('listitem'))[0];
    expect(await within(card).findByText('the launch plan', { selector: 'strong' })).toBeInTheDocument();
    const about = within(card).getByRole('region', { name: 'What the question is about' });
    expect(await within(about).findByRole('heading', { name: 'Plan' })).toBeInTheDocument();
    expect(within(about).getByText('CFO', { selector: 'em' })).toBeInTheDocument();
    expect(card.textContent).not.toContain('**');
  });

  it('delegates to a member of the same organization', async () => {
    const { api } = setup([makeItem()]);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Delegate' }));
    const dialog = await screen.findByRole('dialog');
    const select = within(dialog).getByLabelText('Delegate to');
    await within(dialog).findByRole('option', { name: 'Maya Patel' });
    await user.selectOptions(select, 'user-maya');
    await user.click(within(dialog).getByRole('button', { name: 'Delegate' }));
    await waitFor(() => expect(api.callsTo('POST', '/api/inbox/item-1/delegate')).toHaveLength(1));
    expect(api.callsTo('POST', '/api/inbox/item-1/delegate')[0].body).toEqual({ user_id: 'user-maya' });
  });

  it('an item resolved elsewhere leaves the list and the count when the inbox stream says so', async () => {
    const { setItems } = setup([makeItem()]);
    expect(await screen.findByText('Close the Key hires gap')).toBeInTheDocument();
    const main = screen.getByRole('navigation', { name: 'Main' });
    expect(await within(main).findByRole('link', { name: /^Inbox\W*1 waiting$/ })).toBeInTheDocument();
    setItems([]);
    const note = streams.get('/api/inbox/events');
    expect(note).toBeDefined();
    act(() => note?.({ data: { kind: 'inbox_changed' } }));
    expect(await screen.findByText(INBOX_EMPTY)).toBeInTheDocument();
    await waitFor(() => expect(within(main).getByRole('link', { name: 'Inbox' })).toBeInTheDocument());
  });

  it('the dashboard’s Urgent panel shows the count', async () => {
    setup(
      [makeItem(), makeItem({ id: 'item-2' })],
      {
        'GET /api/strategic-goals': { body: [] },
        'GET /api/tasks/urgent': { body: [] },
        'GET /api/strategic-advice': { body: [] },
      },
      '/app/ceodashboard',
    );
    const link = await screen.findByRole('link', { name: /2 items waiting in your Inbox/ });
    expect(link).toHaveAttribute('href', '/app/inbox');
  });

  it('ages read in the largest whole unit', () => {
    const now = Date.parse('2026-11-24T12:00:00Z');
    expect(waitingFor('2026-11-24T11:59:30Z', now)).toBe('just now');
    expect(waitingFor('2026-11-24T11:15:00Z', now)).toBe('45 min');
    expect(waitingFor('2026-11-24T07:00:00Z', now)).toBe('5 h');
    expect(waitingFor('2026-11-21T12:00:00Z', now)).toBe('3 d');
  });

  it('a tool call is approved or rejected as shown: its body is on the card and there is no Edit', async () => {
    setup([
      makeItem({
        kind: 'tool_approval',
        title: 'Approve a call of Pay vendor',
        source: { type: 'run', id: 'ap-1', url: '/app/runs/flow/run-1' },
        details: { method: 'POST', url: 'https://pay.example.com', body: { amount: '42' } },
      }),
    ]);
    const list = await screen.findByRole('list', { name: 'Waiting items' });
    const [card] = within(list).getAllByRole('listitem');
    expect(within(card).getByText(/"amount": "42"/)).toBeInTheDocument();
    for (const name of ['Approve', 'Reject', 'Delegate'])
      expect(within(card).getByRole('button', { name })).toBeInTheDocument();
    expect(within(card).queryByRole('button', { name: 'Edit' })).toBeNull();
  });

  it('an interrupted call asks whether it went through and sends the chosen answer', async () => {
    const { api } = setup([
      makeItem({
        kind: 'interrupted_call',
        title: 'This call was interrupted; did it go through?',
        summary: 'Pay vendor: POST https://pay.example.com',
        source: { type: 'run', id: 'ap-1', url: '/app/runs/flow/run-1' },
        details: { question: 'This call was interrupted; did it go through?' },
      }),
    ]);
    const list = await screen.findByRole('list', { name: 'Waiting items' });
    const [card] = within(list).getAllByRole('listitem');
    expect(within(card).getByText('Interrupted call')).toBeInTheDocument();
    expect(within(card).getByText('This call was interrupted; did it go through?')).toBeInTheDocument();
    for (const name of ['Approve', 'Edit', 'Reject'])
      expect(within(card).queryByRole('button', { name })).toBeNull();
    const user = userEvent.setup();
    await user.click(within(card).getByRole('button', { name: 'It went through' }));
    await waitFor(() => expect(api.callsTo('POST', '/api/inbox/item-1/approve')).toHaveLength(1));
    expect(api.callsTo('POST', '/api/inbox/item-1/approve')[0].body).toEqual({
      edits: { answer: 'went_through' },
    });
    expect(within(card).getByRole('button', { name: 'It did not, retry' })).toBeInTheDocument();
    expect(within(card).getByRole('button', { name: 'Stop the run' })).toBeInTheDocument();
  });
});
