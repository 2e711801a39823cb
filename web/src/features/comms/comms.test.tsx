import type { TAssignableUser, TCommsMessage, TCommsThread } from '@cc/contract';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeUser } from '../../test/fixtures';
import { type Handler, mockApi } from '../../test/mock-api';
import { renderApp } from '../../test/render';
import { CreateConversationDialog } from './components/create-conversation-dialog';
import { MessageComposer } from './components/message-composer';

/** jsdom has no EventSource: a fake one the test can push messages through. */
class FakeEventSource {
  static instances: FakeEventSource[] = [];
  url: string;
  onopen: (() => void) | null = null;
  onmessage: ((e: MessageEvent) => void) | null = null;
  onerror: (() => void) | null = null;
  listeners = new Map<string, (e: MessageEvent) => void>();
  closed = false;
  constructor(url: string) {
    this.url = url;
    // The shell's own inbox stream is not the thread's: only the thread streams are counted here.
    if (!url.includes('/api/inbox/events')) FakeEventSource.instances.push(this);
    queueMicrotask(() => this.onopen?.());
  }
  addEventListener(name: string, fn: (e: MessageEvent) => void) {
    this.listeners.set(name, fn);
  }
  close() {
    this.closed = true;
  }
  emit(data: unknown, opts: { id?: string; event?: string } = {}) {
    const ev = new MessageEvent(opts.event ?? 'message', {
      data: JSON.stringify(data),
      lastEventId: opts.id ?? '',
    });
    if (opts.event) this.listeners.get(opts.event)?.(ev);
    else this.onmessage?.(ev);
  }
}

const person = (over: Partial<TAssignableUser>): TAssignableUser => ({
  id: 'u-x',
  name: 'Someone',
  email: 'x@example.com',
  role: null,
  organization_ids: ['org-1'],
  ...over,
});
const maya = person({
  id: 'u-maya',
  name: 'Maya Patel',
  role: 'Head of Operations',
  email: 'maya@demo.example',
});
const leo = person({ id: 'u-leo', name: 'Leo Garcia', role: 'Finance Lead', email: 'leo@demo.example' });

const thread = (over: Partial<TCommsThread> = {}): TCommsThread => ({
  id: 't-1',
  name: 'Maya Patel',
  custom_name: null,
  participants: [{ id: maya.id, name: maya.name, role: maya.role, email: maya.email }],
  other_user_id: maya.id,
  other_user_name: maya.name,
  other_user_role: maya.role,
  last_message_preview: null,
  current_ai_suggestion_id: null,
  created_at: '2026-11-20T10:00:00.000Z',
  updated_at: '2026-11-20T10:00:00.000Z',
  ...over,
});

let seq = 0;
const message = (over: Partial<TCommsMessage> = {}): TCommsMessage => {
  seq += 1;
  return {
    id: `m-${seq}`,
    seq,
    thread_id: 't-1',
    conversation_id: 't-1',
    kind: 'user',
    sender_id: maya.id,
    sender_name: maya.name,
    text: `message ${seq}`,
    timestamp: '2026-11-20T10:00:00.000Z',
    ai_suggested: false,
    ...over,
  };
};

function setup(routes: Record<string, Handler>, path = '/app/comms') {
  const api = mockApi({
    'GET /api/users/me': { body: makeUser({ id: 'u-me', first_name: 'Olivia', organization_id: 'org-1' }) },
    'POST /api/auth/stream-ticket': { body: { ticket: 'st_x', expires_in: 60 } },
    'GET /api/contacts/assignable': { body: [maya, leo] },
    ...routes,
  });
  const app = renderApp({ path, token: 'tok' });
  return { api, ...app };
}

beforeEach(() => {
  FakeEventSource.instances = [];
  vi.stubGlobal('EventSource', FakeEventSource);
});
afterEach(() => vi.unstubAllGlobals());

describe('Comms Center', () => {
  it('shows the loading text, then the empty text', async () => {
    setup({ 'GET /api/comms/threads': { body: [] } });
    expect(await screen.findByText('Loading Comms Center...')).toBeInTheDocument();
    expect(await screen.findByText('No strategic conversations yet.')).toBeInTheDocument();
  });

  it('lists threads with avatar, name, role, preview or "No messages yet", and date', async () => {
    setup({
      'GET /api/comms/threads': {
        body: [
          thread({ last_message_preview: 'Numbers are in...' }),
          thread({
            id: 't-2',
            name: 'Leo Garcia',
            other_user_role: 'Finance Lead',
            participants: [{ id: leo.id, name: leo.name, role: leo.role, email: leo.email }],
          }),
        ],
      },
    });
    const items = await screen.findAllByTestId('comms-thread');
    expect(items).toHaveLength(2);
    expect(within(items[0]).getByText('Maya Patel')).toBeInTheDocument();
    expect(within(items[0]).getByText('Head of Operations')).toBeInTheDocument();
    expect(within(items[0]).getByText('Numbers are in...')).toBeInTheDocument();
    expect(within(items[0]).getByText('M')).toBeInTheDocument();
    expect(within(items[1]).getByText('No messages yet')).toBeInTheDocument();
    expect(items[1].querySelector('time')?.getAttribute('datetime')).toBe('2026-11-20T10:00:00.000Z');
  });

  it('creates a conversation from the ticked contacts and opens it', async () => {
    const user = userEvent.setup();
    const { api } = setup({
      'GET /api/comms/threads': { body: [] },
      'POST /api/comms/threads': { status: 201, body: thread() },
      'GET /api/comms/threads/t-1': { body: thread() },
      'GET /api/comms/threads/t-1/messages': { body: [] },
      'GET /api/comms/threads/t-1/suggestion': { body: { suggestion: null } },
    });
    await user.click(await screen.findByRole('button', { name: 'New Message' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create Conversation' });
    await user.click(within(dialog).getByRole('checkbox', { name: 'Maya Patel' }));
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(api.callsTo('POST', '/api/comms/threads')).toHaveLength(1));
    expect(api.callsTo('POST', '/api/comms/threads')[0].body).toEqual({ participant_ids: ['u-maya'] });
    expect(await screen.findByRole('heading', { name: 'Maya Patel' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Back to conversations' })).toBeInTheDocument();
  });

  it('shows bubbles (own on the right), live messages from the stream and its status', async () => {
    const mine = message({ sender_id: 'u-me', sender_name: 'Olivia', text: 'Hi Maya' });
    const theirs = message({ text: 'Hello Olivia' });
    setup(
      {
        'GET /api/comms/threads': { body: [thread()] },
        'GET /api/comms/threads/t-1': { body: thread() },
        'GET /api/comms/threads/t-1/messages': { body: [mine, theirs] },
        'GET /api/comms/threads/t-1/suggestion': { body: { suggestion: null } },
      },
      '/app/comms?thread=t-1',
    );
    const bubbles = await screen.findAllByTestId('comms-message');
    expect(bubbles.map((b) => b.dataset.own)).toEqual(['true', 'false']);
    await waitFor(() => expect(FakeEventSource.instances).toHaveLength(1));
    const es = FakeEventSource.instances[0];
    expect(es.url).toContain('/api/comms/threads/t-1/events');
    expect(es.url).toContain(`last_event_id=${theirs.seq}`);
    expect(es.url).toContain('token=st_x');
    await waitFor(() => expect(screen.getByTestId('comms-stream-status').dataset.status).toBe('open'));
    const live = message({ text: 'Typed just now' });
    es.emit(live, { id: String(live.seq) });
    expect(await screen.findByText('Typed just now')).toBeInTheDocument();
    es.emit(live, { id: String(live.seq) }); // a repeat is shown once
    expect(screen.getAllByText('Typed just now')).toHaveLength(1);
  });

  it('uses an edited suggestion and ignores another', async () => {
    const user = userEvent.setup();
    let suggestion: unknown = {
      id: 's-1',
      thread_id: 't-1',
      status: 'ready',
      text: 'Happy to meet.',
      context: null,
      citations: [{ type: 'contact', id: 'c-1', title: 'Maya Patel', url: '/app/contacts?contact=c-1' }],
      created_at: '2026-11-20T10:00:00.000Z',
    };
    const { api } = setup(
      {
        'GET /api/comms/threads': { body: [thread()] },
        'GET /api/comms/threads/t-1': { body: thread() },
        'GET /api/comms/threads/t-1/messages': { body: [message({ text: 'Can we meet?' })] },
        'GET /api/comms/threads/t-1/suggestion': () => ({ body: { suggestion } }),
        'POST /api/comms/threads/t-1/suggestion/use': (c) => ({
          status: 201,
          body: message({ sender_id: 'u-me', text: (c.body as { text: string }).text, ai_suggested: true }),
        }),
        'POST /api/comms/threads/t-1/suggestion/dismiss': {
          status: 201,
          body: message({
            kind: 'system',
            sender_id: null,
            sender_name: 'System',
            text: 'AI suggestion dismissed by user.',
          }),
        },
      },
      '/app/comms?thread=t-1',
    );
    const toggle = await screen.findByRole('button', { name: 'AI suggestion available...' });
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    // The contact record it was drafted from, as a chip (issue 20 §3).
    expect(screen.getByRole('link', { name: 'Contact: Maya Patel' })).toHaveAttribute(
      'href',
      '/app/contacts?contact=c-1',
    );
    const field = screen.getByLabelText('Suggested reply');
    await user.clear(field);
    await user.type(field, 'Tomorrow at 10?');
    suggestion = null;
    await user.click(screen.getByRole('button', { name: 'Use Suggestion' }));
    await waitFor(() => expect(api.callsTo('POST', '/api/comms/threads/t-1/suggestion/use')).toHaveLength(1));
    expect(api.callsTo('POST', '/api/comms/threads/t-1/suggestion/use')[0].body).toEqual({
      text: 'Tomorrow at 10?',
    });
    expect(await screen.findByText('Tomorrow at 10?')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'AI suggestion available...' })).not.toBeInTheDocument();

    // A new suggestion is announced on the stream; Ignore adds the system message.
    suggestion = {
      id: 's-2',
      thread_id: 't-1',
      status: 'ready',
      text: 'Sure.',
      context: null,
      created_at: 'x',
    };
    FakeEventSource.instances[0].emit({ thread_id: 't-1' }, { event: 'suggestion' });
    await user.click(await screen.findByRole('button', { name: 'AI suggestion available...' }));
    expect(screen.queryByLabelText('Suggested reply')).not.toBeInTheDocument(); // collapsed
    await user.click(screen.getByRole('button', { name: 'AI suggestion available...' }));
    suggestion = null;
    await user.click(screen.getByRole('button', { name: 'Ignore' }));
    expect(await screen.findByText('AI suggestion dismissed by user.')).toBeInTheDocument();
  });

  it('opens a thread for recipientName with the AI suggestion it brings', async () => {
    const { api, router } = setup({
      'GET /api/comms/threads': { body: [] },
      'POST /api/comms/threads': { status: 201, body: thread() },
      // Answers after a moment, so "Preparing communication..." is on screen while it waits.
      'PUT /api/comms/threads/t-1/suggestion': async (c) => {
        await new Promise((r) => setTimeout(r, 100));
        return {
          body: {
            id: 's-9',
            thread_id: 't-1',
            status: 'ready',
            context: null,
            created_at: 'x',
            ...(c.body as object),
          },
        };
      },
      'GET /api/comms/threads/t-1': { body: thread() },
      'GET /api/comms/threads/t-1/messages': { body: [] },
      'GET /api/comms/threads/t-1/suggestion': {
        body: {
          suggestion: {
            id: 's-9',
            thread_id: 't-1',
            status: 'ready',
            text: 'Draft for Maya',
            context: 'From goals',
            created_at: 'x',
          },
        },
      },
    });
    await screen.findByText('No strategic conversations yet.');
    await router.navigate('/app/comms', {
      state: {
        recipientName: 'maya patel',
        initialAiSuggestionText: 'Draft for Maya',
        communicationContext: 'From goals',
      },
    });
    expect(await screen.findByText('Preparing communication...')).toBeInTheDocument();
    expect(await screen.findByDisplayValue('Draft for Maya')).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/comms/threads')[0].body).toEqual({ participant_ids: ['u-maya'] });
    expect(api.callsTo('PUT', '/api/comms/threads/t-1/suggestion')[0].body).toEqual({
      text: 'Draft for Maya',
      context: 'From goals',
    });
    expect(router.state.location.search).toBe('?thread=t-1');
  });
});

describe('Create Conversation dialog', () => {
  it('disables Create until someone is ticked, and says when the search finds nobody', async () => {
    const user = userEvent.setup();
    const onCreate = vi.fn();
    render(
      <CreateConversationDialog
        open
        onOpenChange={() => {}}
        contacts={[maya, leo]}
        loading={false}
        pending={false}
        onCreate={onCreate}
      />,
    );
    const create = screen.getByRole('button', { name: 'Create' });
    expect(create).toBeDisabled();
    const search = screen.getByRole('searchbox', { name: 'Search contacts' });
    await user.type(search, 'zzz');
    expect(screen.getByText('No contacts found')).toBeInTheDocument();
    await user.clear(search);
    await user.type(search, 'finance');
    expect(screen.queryByRole('checkbox', { name: 'Maya Patel' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('checkbox', { name: 'Leo Garcia' }));
    expect(create).toBeEnabled();
    await user.click(screen.getByRole('checkbox', { name: 'Leo Garcia' }));
    expect(create).toBeDisabled();
    await user.click(screen.getByRole('checkbox', { name: 'Leo Garcia' }));
    await user.click(create);
    expect(onCreate).toHaveBeenCalledWith(['u-leo']);
  });
});

describe('Message composer', () => {
  it('disables send while blank, sends on Enter and clears', async () => {
    const user = userEvent.setup();
    const onSend = vi.fn().mockResolvedValue(undefined);
    render(<MessageComposer onSend={onSend} pending={false} />);
    const box = screen.getByPlaceholderText('Type a message...');
    const send = screen.getByRole('button', { name: 'Send message' });
    expect(send).toBeDisabled();
    await user.type(box, '   ');
    expect(send).toBeDisabled();
    await user.type(box, '{Enter}');
    expect(onSend).not.toHaveBeenCalled();
    await user.clear(box);
    await user.type(box, 'Hello{Shift>}{Enter}{/Shift}there');
    expect(send).toBeEnabled();
    await user.keyboard('{Enter}');
    expect(onSend).toHaveBeenCalledWith('Hello\nthere');
    await waitFor(() => expect(box).toHaveValue(''));
  });

  it('keeps the text when sending fails', async () => {
    const user = userEvent.setup();
    const onSend = vi.fn().mockRejectedValue(new Error('nope'));
    render(<MessageComposer onSend={onSend} pending={false} />);
    const box = screen.getByPlaceholderText('Type a message...');
    await user.type(box, 'Keep me');
    await user.click(screen.getByRole('button', { name: 'Send message' }));
    expect(onSend).toHaveBeenCalledWith('Keep me');
    expect(box).toHaveValue('Keep me');
  });
});
