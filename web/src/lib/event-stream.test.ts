import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

let tickets = 0;
vi.mock('./api', () => ({
  api: vi.fn(async () => ({ ticket: `st_${++tickets}`, expires_in: 60 })),
}));

import { openEventStream, type StreamStatus } from './event-stream';

class FakeEventSource {
  static instances: FakeEventSource[] = [];
  static CLOSED = 2;
  readyState = 0;
  onopen: (() => void) | null = null;
  onmessage: ((ev: MessageEvent) => void) | null = null;
  onerror: (() => void) | null = null;
  listeners = new Map<string, (ev: MessageEvent) => void>();
  closed = false;
  constructor(public url: string) {
    FakeEventSource.instances.push(this);
  }
  addEventListener(name: string, fn: (ev: MessageEvent) => void) {
    this.listeners.set(name, fn);
  }
  close() {
    this.closed = true;
    this.readyState = 2;
  }
  emit(data: unknown, id = '', type = 'message') {
    const ev = { data: JSON.stringify(data), lastEventId: id, type } as MessageEvent;
    if (type === 'message') this.onmessage?.(ev);
    else this.listeners.get(type)?.(ev);
  }
}

describe('openEventStream', () => {
  beforeEach(() => {
    tickets = 0;
    FakeEventSource.instances = [];
    vi.stubGlobal('EventSource', FakeEventSource);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('opens with a fresh ticket, delivers parsed events and resumes from the last id after an error', async () => {
    const got: unknown[] = [];
    const statuses: StreamStatus[] = [];
    const stop = openEventStream('/api/things/1/events', {
      onMessage: (m) => got.push(m),
      onStatus: (s) => statuses.push(s),
    });
    await vi.waitFor(() => expect(FakeEventSource.instances).toHaveLength(1));
    const first = FakeEventSource.instances[0];
    expect(new URL(first.url).searchParams.get('token')).toBe('st_1');
    expect(new URL(first.url).searchParams.get('last_event_id')).toBeNull();
    first.onopen?.();
    first.emit({ text: 'hi' }, '7');
    first.emit({ delta: 'x' }, '', 'delta');
    expect(got).toEqual([
      { id: '7', event: undefined, data: { text: 'hi' } },
      { id: undefined, event: 'delta', data: { delta: 'x' } },
    ]);
    first.onerror?.();
    expect(first.closed).toBe(true);
    expect(statuses).toContain('error');
    await vi.advanceTimersByTimeAsync(2000);
    await vi.waitFor(() => expect(FakeEventSource.instances).toHaveLength(2));
    const second = new URL(FakeEventSource.instances[1].url);
    expect(second.searchParams.get('token')).toBe('st_2');
    expect(second.searchParams.get('last_event_id')).toBe('7');
    stop();
    expect(FakeEventSource.instances[1].closed).toBe(true);
    expect(statuses.at(-1)).toBe('closed');
  });

  it('stops for good after a terminal message', async () => {
    const stop = openEventStream('/api/runs/1/events', {
      onMessage: () => {},
      isTerminal: (m) => (m.data as { status?: string }).status === 'completed',
    });
    await vi.waitFor(() => expect(FakeEventSource.instances).toHaveLength(1));
    const es = FakeEventSource.instances[0];
    es.onopen?.();
    es.emit({ status: 'completed' }, '3');
    expect(es.closed).toBe(true);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(FakeEventSource.instances).toHaveLength(1);
    stop();
  });
});
