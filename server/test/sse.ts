import http from 'node:http';

export interface SseEvent {
  id?: string;
  event?: string;
  /** JSON-parsed when it parses, else the raw text. */
  data: unknown;
}

export interface SseClient {
  /** HTTP status of the response. */
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The next event (comments and heartbeats skipped); rejects after timeoutMs. */
  next(timeoutMs?: number): Promise<SseEvent>;
  /** Collects events until `until` returns true for one (inclusive) or the timeout passes. */
  collect(until: (e: SseEvent) => boolean, timeoutMs?: number): Promise<SseEvent[]>;
  /** The raw body when the server answered with an error instead of a stream. */
  body(): Promise<string>;
  /** Resolves when the server ends the stream. */
  closed: Promise<void>;
  close(): void;
}

/** A real SSE client over HTTP (no EventSource polyfill), for tests against a listening app. */
export function connectSse(
  url: string,
  opts: { headers?: Record<string, string>; lastEventId?: string } = {},
): Promise<SseClient> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { accept: 'text/event-stream', ...opts.headers };
    if (opts.lastEventId) headers['last-event-id'] = opts.lastEventId;
    const request = http.get(url, { headers }, (res) => {
      res.setEncoding('utf8');
      const queue: SseEvent[] = [];
      const waiters: ((e: SseEvent | null) => void)[] = [];
      let buffer = '';
      let raw = '';
      let ended = false;
      let endResolve: () => void = () => {};
      const closed = new Promise<void>((r) => {
        endResolve = r;
      });
      const push = (e: SseEvent) => {
        const w = waiters.shift();
        if (w) w(e);
        else queue.push(e);
      };
      const parseBlock = (block: string) => {
        const ev: { id?: string; event?: string; data?: string } = {};
        for (const line of block.split('\n')) {
          if (!line || line.startsWith(':')) continue;
          const i = line.indexOf(':');
          const field = i === -1 ? line : line.slice(0, i);
          const value = i === -1 ? '' : line.slice(i + 1).replace(/^ /, '');
          if (field === 'data') ev.data = ev.data === undefined ? value : `${ev.data}\n${value}`;
          else if (field === 'id') ev.id = value;
          else if (field === 'event') ev.event = value;
        }
        if (ev.data === undefined) return;
        let data: unknown = ev.data;
        try {
          data = JSON.parse(ev.data);
        } catch {
          // plain text data
        }
        push({ id: ev.id, event: ev.event, data });
      };
      res.on('data', (chunk: string) => {
        raw += chunk;
        buffer += chunk;
        let idx = buffer.indexOf('\n\n');
        while (idx !== -1) {
          parseBlock(buffer.slice(0, idx));
          buffer = buffer.slice(idx + 2);
          idx = buffer.indexOf('\n\n');
        }
      });
      const onEnd = () => {
        if (ended) return;
        ended = true;
        for (const w of waiters.splice(0)) w(null);
        endResolve();
      };
      res.on('end', onEnd);
      res.on('close', onEnd);
      res.on('error', onEnd);

      const next = (timeoutMs = 5000) =>
        new Promise<SseEvent>((ok, fail) => {
          const queued = queue.shift();
          if (queued) return ok(queued);
          if (ended) return fail(new Error('SSE stream closed'));
          const timer = setTimeout(() => {
            const i = waiters.indexOf(waiter);
            if (i !== -1) waiters.splice(i, 1);
            fail(new Error(`no SSE event within ${timeoutMs} ms`));
          }, timeoutMs);
          const waiter = (e: SseEvent | null) => {
            clearTimeout(timer);
            if (e) ok(e);
            else fail(new Error('SSE stream closed'));
          };
          waiters.push(waiter);
        });

      resolve({
        status: res.statusCode ?? 0,
        headers: res.headers,
        next,
        async collect(until, timeoutMs = 5000) {
          const out: SseEvent[] = [];
          const deadline = Date.now() + timeoutMs;
          for (;;) {
            const left = deadline - Date.now();
            if (left <= 0) throw new Error(`SSE: condition not met within ${timeoutMs} ms`);
            const e = await next(left);
            out.push(e);
            if (until(e)) return out;
          }
        },
        body: async () => {
          await closed;
          return raw;
        },
        closed,
        close() {
          request.destroy();
          res.destroy();
        },
      });
    });
    request.on('error', reject);
  });
}
