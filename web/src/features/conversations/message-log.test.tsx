import type { TConversationMessage } from '@cc/contract';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MessageLog } from './components/message-log';
import { MessageStore } from './message-store';

const msg = (id: string, position: number, text: string): TConversationMessage => ({
  id,
  conversation_id: 'c1',
  sender: 'assistant',
  text,
  timestamp: '2026-03-01T10:00:00.000Z',
  crew_run_id: null,
  flow_run_id: null,
  status: 'complete',
  model: null,
  usage: null,
  position,
  citations: [],
});

/** Issue 17 §1: the log follows a reply whenever the reader was at the bottom when it started. */
describe('MessageLog following', () => {
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

  /** The log with a scroll geometry the test controls (jsdom lays nothing out). */
  function setup() {
    const store = new MessageStore();
    store.upsert([msg('m1', 1, 'first'), msg('m2', 2, 'second')]);
    const props = { store, loading: false, hasMore: false, loadingOlder: false, onLoadOlder: () => {} };
    const view = render(<MessageLog {...props} />);
    const log = screen.getByRole('log', { name: 'Messages' });
    const geo = { height: 1000, top: 400 };
    Object.defineProperty(log, 'scrollHeight', { configurable: true, get: () => geo.height });
    Object.defineProperty(log, 'scrollTop', {
      configurable: true,
      get: () => geo.top,
      set: (v: number) => {
        geo.top = Math.min(v, geo.height - 600);
      },
    });
    const scroll = () => fireEvent.scroll(log);
    return {
      store,
      log,
      geo,
      scroll,
      rerender: (signal: number) => view.rerender(<MessageLog {...props} followSignal={signal} />),
    };
  }
  const jump = () => screen.queryByRole('button', { name: 'Jump to latest message' });

  it('keeps following when a scroll event lands after the reply grew, and stops only when the reader scrolls up', () => {
    const { store, geo, scroll, rerender } = setup();
    scroll(); // at the bottom
    // The reply grew before the scroll event of the last follow arrived: the reader did not move.
    geo.height = 1400;
    scroll();
    expect(jump()).toBeNull();
    act(() => store.upsert([msg('m3', 3, 'third')]));
    expect(geo.top).toBe(800);

    // The reader scrolls up: the log stays where they are and offers the way back.
    geo.top = 300;
    scroll();
    expect(jump()).not.toBeNull();
    geo.height = 1600;
    act(() => store.upsert([msg('m4', 4, 'fourth')]));
    expect(geo.top).toBe(300);

    // A sent message (or a run's end) takes the log to the latest message.
    rerender(1);
    expect(geo.top).toBe(1000);
    expect(jump()).toBeNull();
  });
});
