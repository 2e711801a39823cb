import { useEffect, useRef, useState } from 'react';
import { api } from './api';

export type StreamStatus = 'connecting' | 'open' | 'closed' | 'error';

export interface StreamMessage {
  id?: string;
  event?: string;
  /** JSON-parsed when the data is JSON, else the raw text. */
  data: unknown;
}

export interface EventStreamHandlers {
  onMessage(msg: StreamMessage): void;
  onStatus?(status: StreamStatus): void;
  /** A message after which the server ends the stream (e.g. a run's final status): no reconnect. */
  isTerminal?(msg: StreamMessage): boolean;
}

/** Named events the servers send besides the default `message` (listeners must be registered by name). */
const NAMED_EVENTS = [
  'delta',
  'message',
  'status',
  'event',
  'end',
  'suggestion',
  'run',
  'run_event',
  'timeline',
];

const parse = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
};

/**
 * Opens an SSE stream the way the server expects: a fresh single-use ticket per connection
 * (`POST /api/auth/stream-ticket`, so the access token never appears in a URL), reconnects with
 * exponential backoff, and resumes from the last event id (`last_event_id`, because a new EventSource
 * cannot send the Last-Event-ID header). The server ending the stream (a terminal event) is final.
 */
export function openEventStream(path: string, handlers: EventStreamHandlers): () => void {
  let source: EventSource | null = null;
  let stopped = false;
  let lastId: string | undefined;
  let attempt = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const status = (s: StreamStatus) => handlers.onStatus?.(s);

  const connect = async () => {
    if (stopped) return;
    status('connecting');
    let ticket: string;
    try {
      ticket = (await api<{ ticket: string }>('/api/auth/stream-ticket', { method: 'POST' })).ticket;
    } catch {
      // A 401/403 already ends the session in api(); anything else is retried.
      return retry();
    }
    if (stopped) return;
    const url = new URL(path, window.location.origin);
    url.searchParams.set('token', ticket);
    if (lastId) url.searchParams.set('last_event_id', lastId);
    const es = new EventSource(url.toString());
    source = es;
    let opened = false;
    const deliver = (ev: MessageEvent) => {
      if (stopped) return;
      if (ev.lastEventId) lastId = ev.lastEventId;
      const msg: StreamMessage = {
        id: ev.lastEventId || undefined,
        event: ev.type === 'message' ? undefined : ev.type,
        data: parse(String(ev.data)),
      };
      handlers.onMessage(msg);
      if (handlers.isTerminal?.(msg)) {
        stopped = true;
        es.close();
        source = null;
        status('closed');
      }
    };
    es.onopen = () => {
      opened = true;
      attempt = 0;
      status('open');
    };
    es.onmessage = deliver;
    for (const name of NAMED_EVENTS) es.addEventListener(name, deliver as EventListener);
    es.onerror = () => {
      es.close();
      source = null;
      if (stopped) return;
      // A stream that had opened starts again from attempt 1 (quick); a refused one backs off.
      if (opened) attempt = 0;
      retry();
    };
  };

  const retry = () => {
    if (stopped) return;
    status('error');
    attempt += 1;
    const delay = Math.min(30_000, 500 * 2 ** Math.min(attempt, 6)) * (0.75 + Math.random() * 0.5);
    timer = setTimeout(() => void connect(), delay);
  };

  void connect();
  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    source?.close();
    source = null;
    status('closed');
  };
}

/**
 * React binding: follows `path` while mounted (null pauses), calling the latest onMessage.
 * Returns the stream status for a small indicator.
 */
export function useEventStream(
  path: string | null,
  opts: { onMessage(msg: StreamMessage): void; isTerminal?(msg: StreamMessage): boolean; enabled?: boolean },
): StreamStatus {
  const [status, setStatus] = useState<StreamStatus>('closed');
  const handler = useRef(opts.onMessage);
  handler.current = opts.onMessage;
  const terminal = useRef(opts.isTerminal);
  terminal.current = opts.isTerminal;
  const enabled = opts.enabled !== false && path !== null;

  useEffect(() => {
    if (!enabled || !path) return;
    return openEventStream(path, {
      onMessage: (m) => handler.current(m),
      isTerminal: (m) => terminal.current?.(m) ?? false,
      onStatus: setStatus,
    });
  }, [path, enabled]);

  return status;
}
