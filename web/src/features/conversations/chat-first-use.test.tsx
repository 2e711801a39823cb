import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeUser } from '../../test/fixtures';
import { type Handler, mockApi } from '../../test/mock-api';
import { renderApp } from '../../test/render';

/** Issue 17 §2: the first use of chat (Internal Search on, remembered settings, memory after the answer). */
describe('first use of chat', () => {
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

  const user = makeUser({ id: 'u-1' });
  const conv = (id: string) => ({
    id,
    name: `Conversation ${id}`,
    created_at: '2026-03-01T10:00:00.000Z',
    updated_at: '2026-03-01T10:00:00.000Z',
  });
  const routesFor = (id: string, extra: Record<string, Handler> = {}): Record<string, Handler> => ({
    'GET /api/users/me': { body: user },
    [`GET /api/conversations/${id}`]: { body: conv(id) },
    [`GET /api/conversations/${id}/messages`]: { body: { items: [], has_more: false, cursor: '0' } },
    'POST /api/auth/stream-ticket': { status: 500, body: { detail: 'no streams in tests' } },
    'GET /api/models': { body: [] },
    ...extra,
  });
  const open = async (id: string, extra?: Record<string, Handler>) => {
    const api = mockApi(routesFor(id, extra));
    const view = renderApp({ path: `/app/conversations/${id}`, token: 'tok' });
    await screen.findByText('Start a new conversation');
    await userEvent.click(screen.getByRole('button', { name: 'More Settings' }));
    return { api, ...view };
  };
  const checked = (label: string) => (screen.getByLabelText(label) as HTMLInputElement).checked;

  it('starts a new conversation with Internal Search on and sends it', async () => {
    const { api } = await open('c1', {
      'POST /api/conversations/c1/chat': { status: 502, body: { detail: 'upstream' } },
    });
    expect(checked('Internal Search')).toBe(true);
    expect(checked('Memory')).toBe(false);
    await userEvent.type(screen.getByLabelText('Message'), 'What is on my plate?{Enter}');
    await waitFor(() => expect(api.callsTo('POST', '/api/conversations/c1/chat')).toHaveLength(1));
    expect(api.callsTo('POST', '/api/conversations/c1/chat')[0].body).toMatchObject({
      use_internal_search: true,
    });
  });

  it('keeps the choices per conversation across a reload, and as the defaults of a new conversation', async () => {
    const first = await open('c1');
    await userEvent.click(screen.getByLabelText('Internal Search'));
    await userEvent.click(screen.getByLabelText('Memory'));
    const context = screen.getByLabelText('Context Messages');
    await userEvent.clear(context);
    await userEvent.type(context, '6');
    first.unmount();

    // A reload of the same conversation shows its choices.
    const again = await open('c1');
    expect(checked('Internal Search')).toBe(false);
    expect(checked('Memory')).toBe(true);
    expect(screen.getByLabelText('Context Messages')).toHaveValue(6);
    again.unmount();

    // A new conversation starts from the person's last choices; changing it leaves c1 as it was.
    const fresh = await open('c2');
    expect(checked('Internal Search')).toBe(false);
    expect(checked('Memory')).toBe(true);
    await userEvent.click(screen.getByLabelText('Memory'));
    fresh.unmount();
    await open('c1');
    expect(checked('Memory')).toBe(true);
  });

  it('mines memory after the answer, from the exchange, and not before the reply', async () => {
    let release: (r: { status: number; body: unknown }) => void = () => {};
    const { api } = await open('c1', {
      'POST /api/conversations/c1/chat': () => new Promise((r) => (release = r)),
      'POST /api/memory/mine': { body: { added: [], skipped: 0 } },
    });
    await userEvent.click(screen.getByLabelText('Memory'));
    await userEvent.type(screen.getByLabelText('Message'), 'I lead the sales team.{Enter}');
    await waitFor(() => expect(api.callsTo('POST', '/api/conversations/c1/chat')).toHaveLength(1));
    expect(api.callsTo('POST', '/api/memory/mine')).toHaveLength(0);
    release({
      status: 200,
      body: {
        id: 'r1',
        conversation_id: 'c1',
        content: 'Noted: you lead sales.',
        timestamp: '2026-03-01T10:00:01.000Z',
        status: 'complete',
        user_message_id: 'q1',
        model: 'offline',
        usage: null,
      },
    });
    await waitFor(() => expect(api.callsTo('POST', '/api/memory/mine')).toHaveLength(1));
    expect(api.callsTo('POST', '/api/memory/mine')[0].body).toEqual({
      content: 'User: I lead the sales team.\n\nAssistant: Noted: you lead sales.',
      metadata: { conversation_id: 'c1' },
    });
  });
});
