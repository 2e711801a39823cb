import { vi } from 'vitest';

export interface RecordedCall {
  method: string;
  path: string;
  search: URLSearchParams;
  headers: Record<string, string>;
  /** Parsed JSON body, or the raw string for other bodies. */
  body: unknown;
}

export type Reply = { status?: number; body?: unknown; statusText?: string } | Response;
export type Handler = Reply | ((call: RecordedCall) => Reply | Promise<Reply>);

/**
 * Replaces `fetch` for a web unit test. Routes are keyed "METHOD /path" (query string ignored);
 * unknown routes answer 404 so a test never silently reaches the network.
 */
export function mockApi(routes: Record<string, Handler>) {
  const calls: RecordedCall[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input), 'http://localhost');
    const raw = typeof init.body === 'string' ? init.body : undefined;
    let body: unknown = raw;
    if (raw !== undefined) {
      try {
        body = JSON.parse(raw);
      } catch {
        body = raw;
      }
    }
    const call: RecordedCall = {
      method: (init.method ?? 'GET').toUpperCase(),
      path: url.pathname,
      search: url.searchParams,
      headers: Object.fromEntries(Object.entries((init.headers as Record<string, string>) ?? {})),
      body,
    };
    calls.push(call);
    const handler = routes[`${call.method} ${call.path}`];
    const reply = typeof handler === 'function' ? await handler(call) : handler;
    if (!reply) return json(404, { detail: 'Not Found' }, 'Not Found');
    if (reply instanceof Response) return reply;
    return json(reply.status ?? 200, reply.body, reply.statusText);
  });
  vi.stubGlobal('fetch', fetchMock);
  return {
    calls,
    fetchMock,
    callsTo: (method: string, path: string) => calls.filter((c) => c.method === method && c.path === path),
  };
}

function json(status: number, body: unknown, statusText?: string): Response {
  if (status === 204 || body === undefined) return new Response(null, { status, statusText });
  return new Response(JSON.stringify(body), {
    status,
    statusText,
    headers: { 'Content-Type': 'application/json' },
  });
}
