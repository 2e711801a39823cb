import type { TCommsMessage, TCommsThread } from '@cc/contract';
import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { makeUser } from '../../test/fixtures';
import { type Handler, mockApi } from '../../test/mock-api';
import { renderApp } from '../../test/render';

/** jsdom has no EventSource: one that opens and stays quiet. */
class QuietEventSource {
  onopen: (() => void) | null = null;
  onmessage: ((e: MessageEvent) => void) | null = null;
  onerror: (() => void) | null = null;
  constructor() {
    queueMicrotask(() => this.onopen?.());
  }
  addEventListener() {}
  close() {}
}

const thread: TCommsThread = {
  id: 't-1',
  name: 'Maya Patel',
  custom_name: null,
  participants: [{ id: 'u-maya', name: 'Maya Patel', role: null, email: 'maya@demo.example' }],
  other_user_id: 'u-maya',
  other_user_name: 'Maya Patel',
  other_user_role: null,
  last_message_preview: null,
  current_ai_suggestion_id: null,
  created_at: '2026-11-20T10:00:00.000Z',
  updated_at: '2026-11-20T10:00:00.000Z',
};

const message = (id: string, seq: number, text: string): TCommsMessage => ({
  id,
  seq,
  thread_id: 't-1',
  conversation_id: 't-1',
  kind: 'user',
  sender_id: 'u-maya',
  sender_name: 'Maya Patel',
  text,
  timestamp: '2026-11-20T10:00:00.000Z',
  ai_suggested: false,
});

function open(path: string, extra: Record<string, Handler> = {}) {
  mockApi({
    'GET /api/users/me': { body: makeUser({ id: 'u-me', organization_id: 'org-1' }) },
    'POST /api/auth/stream-ticket': { body: { ticket: 'st_x', expires_in: 60 } },
    'GET /api/comms/threads': { body: [thread] },
    'GET /api/comms/threads/t-1': { body: thread },
    'GET /api/comms/threads/t-1/messages': {
      body: [message('m-1', 1, 'Numbers for the board'), message('m-2', 2, 'Any news?')],
    },
    'GET /api/comms/threads/t-1/suggestion': { body: { suggestion: null } },
    ...extra,
  });
  return renderApp({ path, token: 'tok' });
}

beforeEach(() => vi.stubGlobal('EventSource', QuietEventSource));
afterEach(() => vi.unstubAllGlobals());

it('?thread=<id>&message=<id> opens the thread and marks the cited message', async () => {
  open('/app/comms?thread=t-1&message=m-1');
  const cited = (await screen.findByText('Numbers for the board')).closest('[data-testid="comms-message"]');
  expect(cited).toHaveAttribute('aria-current', 'true');
  expect(screen.getByText('Any news?').closest('[data-testid="comms-message"]')).not.toHaveAttribute(
    'aria-current',
  );
});

it('a thread the reader is not in (404) shows that the record is not available and the list', async () => {
  const { router } = open('/app/comms?thread=t-x', {
    'GET /api/comms/threads/t-x': { status: 404, body: { detail: 'Thread not found' } },
  });
  expect(await screen.findByText('This record is not available')).toBeInTheDocument();
  await waitFor(() => expect(router.state.location.search).toBe(''));
  expect(
    await screen.findByText('Choose a conversation, or start one with New Message.'),
  ).toBeInTheDocument();
});
