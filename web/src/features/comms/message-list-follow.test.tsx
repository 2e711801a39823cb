import type { TCommsMessage } from '@cc/contract';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { MessageList } from './components/message-list';

const msg = (n: number, sender = 'other'): TCommsMessage => ({
  id: `m${n}`,
  seq: n,
  thread_id: 't1',
  conversation_id: 'c1',
  kind: 'user',
  sender_id: sender,
  sender_name: sender === 'me' ? 'Me' : 'Dana',
  text: `message ${n}`,
  timestamp: '2026-11-29T09:00:00.000Z',
  ai_suggested: false,
});

/** The list with a scroll geometry the test controls (jsdom lays nothing out). */
function setup(initial: TCommsMessage[]) {
  const props = { meId: 'me', canLoadEarlier: false, loadingEarlier: false, onLoadEarlier: () => {} };
  const view = render(<MessageList messages={initial} {...props} />);
  const log = screen.getByRole('log', { name: 'Messages' });
  const geo = { height: 1000, client: 600, top: 400 };
  Object.defineProperty(log, 'scrollHeight', { configurable: true, get: () => geo.height });
  Object.defineProperty(log, 'clientHeight', { configurable: true, get: () => geo.client });
  Object.defineProperty(log, 'scrollTop', {
    configurable: true,
    get: () => geo.top,
    set: (v: number) => {
      geo.top = Math.max(0, Math.min(v, geo.height - geo.client));
    },
  });
  fireEvent.scroll(log); // at the bottom, where the list starts
  const rerender = (messages: TCommsMessage[]) =>
    view.rerender(<MessageList messages={messages} {...props} />);
  return { log, geo, rerender };
}

describe('comms message list following', () => {
  it('a message arriving while the reader is at the bottom is scrolled into view, even after the list shrank', () => {
    const { log, geo, rerender } = setup([msg(1), msg(2)]);
    // A suggestion panel opens below: the list is shorter, the browser clamps and fires a scroll.
    geo.client = 300;
    geo.top = 600;
    fireEvent.scroll(log);
    geo.height = 1100;
    rerender([msg(1), msg(2), msg(3)]);
    expect(geo.top).toBe(geo.height - geo.client);
    expect(screen.queryByRole('button', { name: 'Jump to latest message' })).not.toBeInTheDocument();
  });

  it('a reader scrolled up keeps their place; "Latest" appears and takes them down', () => {
    const { log, geo, rerender } = setup([msg(1), msg(2)]);
    geo.top = 100;
    fireEvent.scroll(log);
    geo.height = 1100;
    rerender([msg(1), msg(2), msg(3)]);
    expect(geo.top).toBe(100);
    const latest = screen.getByRole('button', { name: 'Jump to latest message' });
    act(() => latest.click());
    expect(geo.top).toBe(geo.height - geo.client);
    expect(screen.queryByRole('button', { name: 'Jump to latest message' })).not.toBeInTheDocument();
  });

  it("one's own new message always goes to the bottom", () => {
    const { log, geo, rerender } = setup([msg(1), msg(2)]);
    geo.top = 100;
    fireEvent.scroll(log);
    geo.height = 1100;
    rerender([msg(1), msg(2), msg(3, 'me')]);
    expect(geo.top).toBe(geo.height - geo.client);
  });
});
