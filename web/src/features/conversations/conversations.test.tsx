import type { TConversationMessage } from '@cc/contract';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { makeUser } from '../../test/fixtures';
import { type Handler, mockApi } from '../../test/mock-api';
import { renderApp } from '../../test/render';
import { defaultInteractionName } from './api';
import { ChatComposer } from './components/chat-composer';
import { readContextMessages } from './components/chat-settings';
import { MessageBody } from './components/message-item';
import { type ChatMessage, MessageStore } from './message-store';
import { MemoryRouter } from 'react-router';

function msg(over: Partial<TConversationMessage> & { id: string; position: number }): TConversationMessage {
  return {
    conversation_id: 'c1',
    sender: 'user',
    text: 'hello',
    timestamp: '2026-03-01T10:00:00.000Z',
    crew_run_id: null,
    flow_run_id: null,
    status: 'complete',
    model: null,
    usage: null,
    citations: [],
    ...over,
  };
}

describe('ChatComposer', () => {
  const setup = (replying = false) => {
    const onSend = vi.fn();
    const onStop = vi.fn();
    render(<ChatComposer onSend={onSend} onStop={onStop} replying={replying} />);
    return { onSend, onStop, input: screen.getByLabelText('Message') as HTMLTextAreaElement };
  };

  it('sends the trimmed text on Enter and clears the input', async () => {
    const { onSend, input } = setup();
    await userEvent.type(input, '  Plan the offsite  ');
    await userEvent.keyboard('{Enter}');
    expect(onSend).toHaveBeenCalledWith('Plan the offsite');
    expect(input.value).toBe('');
  });

  it('Shift+Enter adds a line instead of sending', async () => {
    const { onSend, input } = setup();
    await userEvent.type(input, 'line one');
    await userEvent.keyboard('{Shift>}{Enter}{/Shift}');
    await userEvent.type(input, 'line two');
    expect(onSend).not.toHaveBeenCalled();
    expect(input.value).toBe('line one\nline two');
    await userEvent.keyboard('{Enter}');
    expect(onSend).toHaveBeenCalledWith('line one\nline two');
  });

  it('ignores blank sends and disables Send while the text is blank', async () => {
    const { onSend, input } = setup();
    const send = screen.getByRole('button', { name: 'Send' });
    expect(send).toBeDisabled();
    await userEvent.type(input, '   ');
    expect(send).toBeDisabled();
    await userEvent.keyboard('{Enter}');
    fireEvent.submit(input.closest('form') as HTMLFormElement);
    expect(onSend).not.toHaveBeenCalled();
    await userEvent.type(input, 'x');
    expect(send).toBeEnabled();
  });

  it('shows a refusal above the box, and puts refused text back unless something new was typed', async () => {
    let refuse: (sent: boolean) => void = () => {};
    const onSend = vi.fn(() => new Promise<boolean>((r) => (refuse = r)));
    const { rerender } = render(<ChatComposer onSend={onSend} onStop={vi.fn()} replying={false} />);
    const input = screen.getByLabelText('Message') as HTMLTextAreaElement;
    await userEvent.type(input, 'First try{Enter}');
    expect(input.value).toBe('');
    refuse(false);
    await waitFor(() => expect(input.value).toBe('First try'));
    rerender(<ChatComposer onSend={onSend} onStop={vi.fn()} replying={false} notice="Too many messages." />);
    expect(screen.getByRole('alert')).toHaveTextContent('Too many messages.');

    await userEvent.keyboard('{Enter}');
    await userEvent.type(input, 'Something new');
    refuse(false);
    await new Promise((r) => setTimeout(r, 0));
    expect(input.value).toBe('Something new');
  });

  it('shows Stop instead of Send while a reply is written, and does not send meanwhile', async () => {
    const { onSend, onStop, input } = setup(true);
    expect(screen.queryByRole('button', { name: 'Send' })).toBeNull();
    await userEvent.type(input, 'next question{Enter}');
    expect(onSend).not.toHaveBeenCalled();
    await userEvent.click(screen.getByRole('button', { name: 'Stop' }));
    expect(onStop).toHaveBeenCalledTimes(1);
  });
});

describe('chat helpers', () => {
  it('context messages: whole numbers within 0 to 10, the control falls back to 2', () => {
    expect(readContextMessages('5')).toBe(5);
    expect(readContextMessages('0')).toBe(0);
    expect(readContextMessages('42')).toBe(10);
    expect(readContextMessages('-3')).toBe(0);
    expect(readContextMessages('')).toBe(2);
    expect(readContextMessages('abc')).toBe(2);
  });

  it('the run list names a new conversation "Conversation" plus the local date and time', () => {
    const now = new Date(2026, 10, 22, 14, 5, 9);
    // One unambiguous form, whatever the writer's locale (issue 47 item 4): others read the name too.
    expect(defaultInteractionName(now)).toBe('Conversation 22 Nov 2026, 14:05');
  });
});

describe('MessageStore', () => {
  it('orders by position, applies deltas once by offset, and replaces local messages by the server ones', () => {
    const store = new MessageStore();
    store.upsert([
      msg({ id: 'b', position: 2, text: 'second' }),
      msg({ id: 'a', position: 1, text: 'first' }),
    ]);
    expect(store.getIds()).toEqual(['a', 'b']);
    const userLocal = store.addLocal('user', 'new question', 'complete');
    const placeholder = store.addLocal('assistant', '', 'streaming');
    expect(store.getIds()).toEqual(['a', 'b', userLocal, placeholder]);
    store.upsert([msg({ id: 'u', position: 3, text: 'new question' })]);
    store.upsert([msg({ id: 'r', position: 4, sender: 'assistant', text: '', status: 'streaming' })]);
    expect(store.getIds()).toEqual(['a', 'b', 'u', 'r']);
    const rowListener = vi.fn();
    const listListener = vi.fn();
    store.subscribeMessage('r', rowListener);
    store.subscribeList(listListener);
    store.applyDelta('r', 0, 'Hel');
    store.applyDelta('r', 3, 'lo');
    store.applyDelta('r', 3, 'lo'); // repeated: skipped
    store.applyDelta('r', 9, 'gap'); // ahead of what we have: skipped
    expect(store.get('r')?.text).toBe('Hello');
    expect(rowListener).toHaveBeenCalledTimes(2);
    expect(listListener).not.toHaveBeenCalled();
    // A reload carrying a shorter partial text keeps the longer one; the final message wins.
    store.upsert([msg({ id: 'r', position: 4, sender: 'assistant', text: 'He', status: 'streaming' })]);
    expect(store.get('r')?.text).toBe('Hello');
    store.upsert([msg({ id: 'r', position: 4, sender: 'assistant', text: 'Hello!', status: 'complete' })]);
    expect(store.get('r')).toMatchObject({ text: 'Hello!', status: 'complete' });
  });

  it("shows a reply's tokens that come before the reply on the placeholder, and keeps them when it arrives", () => {
    const store = new MessageStore();
    store.addLocal('user', 'question', 'complete');
    const placeholder = store.addLocal('assistant', '', 'streaming');
    store.applyDelta('r', 0, 'Hel');
    store.applyDelta('r', 3, 'lo');
    expect(store.get(placeholder)?.text).toBe('Hello');
    store.upsert([msg({ id: 'u', position: 1, text: 'question' })]);
    store.upsert([msg({ id: 'r', position: 2, sender: 'assistant', text: '', status: 'streaming' })]);
    expect(store.getIds()).toEqual(['u', 'r']);
    expect(store.get('r')?.text).toBe('Hello');
    store.applyDelta('r', 5, ' there');
    expect(store.get('r')?.text).toBe('Hello there');

    // Another tab (no placeholder): the tokens wait for the reply and join it.
    const other = new MessageStore();
    other.applyDelta('r', 0, 'Hel');
    other.applyDelta('r', 3, 'lo');
    expect(other.getIds()).toEqual([]);
    other.upsert([msg({ id: 'r', position: 2, sender: 'assistant', text: '', status: 'streaming' })]);
    expect(other.get('r')?.text).toBe('Hello');
    // A tab that joined mid-reply ignores tokens it cannot place.
    const late = new MessageStore();
    late.applyDelta('r', 5, ' there');
    late.upsert([msg({ id: 'r', position: 2, sender: 'assistant', text: 'Hello', status: 'streaming' })]);
    expect(late.get('r')?.text).toBe('Hello');
  });
});

describe('MessageBody', () => {
  it('shows "thinking..." for an empty streaming reply and the failure text as sent', () => {
    render(
      <MessageBody
        message={{
          id: 'x',
          sender: 'assistant',
          text: '',
          status: 'streaming',
          timestamp: '',
          position: 1,
          crew_run_id: null,
        }}
      />,
    );
    expect(screen.getByText('thinking...')).toBeInTheDocument();
  });
});

describe('citations under an answer (issue 20 §3)', () => {
  const answer = (over: Partial<ChatMessage>): ChatMessage => ({
    id: 'r',
    sender: 'assistant',
    text: 'Your pipeline review is on track.',
    status: 'complete',
    timestamp: '',
    position: 2,
    crew_run_id: null,
    ...over,
  });
  const show = (message: ChatMessage) =>
    render(
      <MemoryRouter>
        <MessageBody message={message} />
      </MemoryRouter>,
    );

  it('shows a chip per cited record that opens it; a web page opens in a new tab', () => {
    show(
      answer({
        citations: [
          { type: 'task', id: 't1', title: 'Pipeline review', url: '/app/my-tasks?task=t1' },
          { type: 'web', id: 'https://example.com/a', title: 'Market note', url: 'https://example.com/a' },
        ],
      }),
    );
    const sources = screen.getByRole('list', { name: 'Sources' });
    expect(within(sources).getByRole('link', { name: 'Task: Pipeline review' })).toHaveAttribute(
      'href',
      '/app/my-tasks?task=t1',
    );
    expect(within(sources).getByRole('link', { name: 'Web: Market note' })).toHaveAttribute(
      'target',
      '_blank',
    );
    expect(screen.queryByText('No workspace record used')).not.toBeInTheDocument();
  });

  it('says "No workspace record used" under a finished answer without citations, and nothing under a question', () => {
    show(answer({ citations: [] }));
    expect(screen.getByText('No workspace record used')).toBeInTheDocument();
    cleanup();
    show(answer({ sender: 'user', text: 'How is it going?' }));
    expect(screen.queryByText('No workspace record used')).not.toBeInTheDocument();
    cleanup();
    show(answer({ status: 'streaming', text: 'Your pipe' }));
    expect(screen.queryByText('No workspace record used')).not.toBeInTheDocument();
  });
});

describe('pages', () => {
  // jsdom lays nothing out: give elements a size so the virtualized log renders its rows.
  beforeAll(() => {
    for (const [prop, value] of [
      ['offsetHeight', 600],
      ['clientHeight', 600],
      ['clientWidth', 800],
      ['offsetWidth', 800],
    ] as const) {
      Object.defineProperty(HTMLElement.prototype, prop, { configurable: true, get: () => value });
    }
  });
  afterAll(() => {
    for (const p of ['offsetHeight', 'offsetWidth', 'clientHeight', 'clientWidth']) {
      Reflect.deleteProperty(HTMLElement.prototype, p);
    }
  });
  const conversation = {
    id: 'c1',
    name: 'Board prep',
    created_at: '2026-03-01T10:00:00.000Z',
    updated_at: '2026-03-01T10:00:00.000Z',
  };
  function setup(routes: Record<string, Handler>, path: string) {
    const api = mockApi({ 'GET /api/users/me': { body: makeUser() }, ...routes });
    return { api, ...renderApp({ path, token: 'tok' }) };
  }

  it('/app/run shows the empty texts and creates "Conversation <local date and time>"', async () => {
    const { api, router } = setup(
      {
        'GET /api/conversations/': { body: [] },
        'POST /api/conversations/': (call) => ({
          status: 201,
          body: { ...conversation, id: 'new-1', name: (call.body as { name: string }).name },
        }),
        'GET /api/conversations/new-1': { body: { ...conversation, id: 'new-1' } },
        'GET /api/conversations/new-1/messages': { body: { items: [], has_more: false, cursor: '0' } },
      },
      '/app/run',
    );
    expect(await screen.findByText('No AI interactions yet.')).toBeInTheDocument();
    expect(screen.getByText('Start a new interaction to begin.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'New Interaction' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/conversations/new-1'));
    const name = (api.callsTo('POST', '/api/conversations/')[0].body as { name: string }).name;
    expect(name).toMatch(/^Conversation \S/);
  });

  it('/app/conversations opens the most recently updated conversation', async () => {
    const { router } = setup(
      {
        'GET /api/conversations/': { body: [conversation, { ...conversation, id: 'c0' }] },
        'GET /api/conversations/c1': { body: conversation },
        'GET /api/conversations/c1/messages': { body: { items: [], has_more: false, cursor: '0' } },
      },
      '/app/conversations',
    );
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/conversations/c1'));
  });

  it('/app/conversations creates "New Conversation" when there is none, or opens a client id if that fails', async () => {
    const created = setup(
      {
        'GET /api/conversations/': { body: [] },
        'POST /api/conversations/': {
          status: 201,
          body: { ...conversation, id: 'fresh', name: 'New Conversation' },
        },
        'GET /api/conversations/fresh': { body: { ...conversation, id: 'fresh' } },
        'GET /api/conversations/fresh/messages': { body: { items: [], has_more: false, cursor: '0' } },
      },
      '/app/conversations',
    );
    await waitFor(() => expect(created.router.state.location.pathname).toBe('/app/conversations/fresh'));
    expect(created.api.callsTo('POST', '/api/conversations/')[0].body).toEqual({ name: 'New Conversation' });
    created.unmount();

    const failed = setup(
      {
        'GET /api/conversations/': { body: [] },
        'POST /api/conversations/': { status: 500, body: { detail: 'x' } },
      },
      '/app/conversations',
    );
    await waitFor(() =>
      expect(failed.router.state.location.pathname).toMatch(/^\/app\/conversations\/[0-9a-f-]{36}$/),
    );
  });

  it('a conversation shows "Start a new conversation", renames inline and deletes after the confirmation', async () => {
    const { api, router } = setup(
      {
        'GET /api/conversations/c1': { body: conversation },
        'GET /api/conversations/c1/messages': { body: { items: [], has_more: false, cursor: '0' } },
        'PUT /api/conversations/c1': (call) => ({ body: { ...conversation, ...(call.body as object) } }),
        'DELETE /api/conversations/c1': { status: 204 },
        'GET /api/conversations/': { body: [] },
        'POST /api/auth/stream-ticket': { status: 500, body: { detail: 'no streams in tests' } },
      },
      '/app/conversations/c1',
    );
    expect(await screen.findByText('Start a new conversation')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: /Board prep/ }));
    const title = screen.getByLabelText('Conversation title');
    await userEvent.clear(title);
    await userEvent.type(title, '   {Enter}');
    expect(api.callsTo('PUT', '/api/conversations/c1')).toHaveLength(0);
    await userEvent.click(screen.getByRole('button', { name: /Board prep/ }));
    await userEvent.clear(screen.getByLabelText('Conversation title'));
    await userEvent.type(screen.getByLabelText('Conversation title'), 'Offsite plan{Enter}');
    await waitFor(() => expect(api.callsTo('PUT', '/api/conversations/c1')).toHaveLength(1));
    expect(api.callsTo('PUT', '/api/conversations/c1')[0].body).toEqual({ name: 'Offsite plan' });
    expect(await screen.findByRole('button', { name: /Offsite plan/ })).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(
      within(dialog).getByText(
        'Are you sure you want to delete this conversation? This action cannot be undone.',
      ),
    ).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/run'));
    expect(await screen.findByText('Conversation Deleted')).toBeInTheDocument();
  });

  it('a failed chat replaces "thinking..." with the failure text; More Settings sends the chosen options', async () => {
    let release: (r: { status: number; body: unknown }) => void = () => {};
    const { api } = setup(
      {
        'GET /api/conversations/c1': { body: conversation },
        'GET /api/conversations/c1/messages': { body: { items: [], has_more: false, cursor: '0' } },
        'POST /api/conversations/c1/chat': () => new Promise((r) => (release = r)),
        'POST /api/auth/stream-ticket': { status: 500, body: { detail: 'no streams in tests' } },
        'GET /api/models': { body: [] },
      },
      '/app/conversations/c1',
    );
    await screen.findByText('Start a new conversation');
    await userEvent.click(screen.getByRole('button', { name: 'More Settings' }));
    await userEvent.click(screen.getByLabelText('Memory'));
    const context = screen.getByLabelText('Context Messages');
    await userEvent.clear(context);
    await userEvent.type(context, '7');
    await userEvent.type(screen.getByLabelText('Message'), 'How are we doing?{Enter}');
    expect(await screen.findByText('thinking...')).toBeInTheDocument();
    expect(screen.getByText('How are we doing?')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Stop' })).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/conversations/c1/chat')[0].body).toEqual({
      message_text: 'How are we doing?',
      use_memory: true,
      use_internet: false,
      use_internal_search: true,
      model: 'gpt-5-chat',
      context_messages: 7,
    });
    release({ status: 502, body: { detail: 'upstream' } });
    expect(await screen.findByText("Sorry, I couldn't generate a response.")).toBeInTheDocument();
    expect(screen.queryByText('thinking...')).toBeNull();
  });

  it('a chat refused by the rate limit shows its detail at the composer, keeps the text and stores nothing', async () => {
    const detail =
      'You are sending messages too quickly (at most 30 a minute). Please try again in 12 seconds.';
    setup(
      {
        'GET /api/conversations/c1': { body: conversation },
        'GET /api/conversations/c1/messages': { body: { items: [], has_more: false, cursor: '0' } },
        'POST /api/conversations/c1/chat': { status: 429, body: { detail } },
        'POST /api/auth/stream-ticket': { status: 500, body: { detail: 'no streams in tests' } },
        'GET /api/models': { body: [] },
      },
      '/app/conversations/c1',
    );
    await screen.findByText('Start a new conversation');
    const input = screen.getByLabelText('Message') as HTMLTextAreaElement;
    await userEvent.type(input, 'How are we doing?{Enter}');
    expect(await screen.findByRole('alert')).toHaveTextContent(detail);
    await waitFor(() => expect(input.value).toBe('How are we doing?'));
    // Neither the message nor a failure reply stays in the log; the session is still open.
    expect(screen.queryByText("Sorry, I couldn't generate a response.")).toBeNull();
    expect(screen.queryByText('thinking...')).toBeNull();
    expect(screen.getByText('Start a new conversation')).toBeInTheDocument();
    expect(screen.queryByText('Session Expired')).toBeNull();
    expect(localStorage.getItem('authToken')).toBe('tok');
  });

  it('labels run lines by what ran: a flow\'s are "Flow", a crew\'s "Crew"', async () => {
    setup(
      {
        'GET /api/conversations/c1': { body: conversation },
        'GET /api/conversations/c1/messages': {
          body: {
            items: [
              msg({ id: 'm1', position: 1, sender: 'crew', text: 'Flow started', flow_run_id: 'f1' }),
              msg({ id: 'm2', position: 2, sender: 'crew', text: 'Crew started', crew_run_id: 'r1' }),
            ],
            has_more: false,
            cursor: '2',
          },
        },
        'POST /api/auth/stream-ticket': { status: 500, body: { detail: 'no streams in tests' } },
      },
      '/app/conversations/c1',
    );
    const flowLine = (await screen.findByText('Flow started')).closest('[data-sender]') as HTMLElement;
    expect(within(flowLine).getByText('Flow')).toBeInTheDocument();
    expect(within(flowLine).queryByText('Crew')).toBeNull();
    const crewLine = (await screen.findByText('Crew started')).closest('[data-sender]') as HTMLElement;
    expect(within(crewLine).getByText('Crew')).toBeInTheDocument();
  });

  it('a message that cannot render shows "Error displaying message content."', async () => {
    setup(
      {
        'GET /api/conversations/c1': { body: conversation },
        'GET /api/conversations/c1/messages': {
          body: {
            items: [
              msg({ id: 'm1', position: 1, text: 'fine' }),
              { ...msg({ id: 'm2', position: 2 }), text: null },
            ],
            has_more: false,
            cursor: '2',
          },
        },
        'POST /api/auth/stream-ticket': { status: 500, body: { detail: 'no streams in tests' } },
      },
      '/app/conversations/c1',
    );
    vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(await screen.findByText('fine')).toBeInTheDocument();
    expect(await screen.findByText('Error displaying message content.')).toBeInTheDocument();
  });
});
