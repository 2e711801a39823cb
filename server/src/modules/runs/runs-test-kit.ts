import http from 'node:http';
import { expect } from 'vitest';
import type { TestApp, TestUser } from '../../../test/helpers.ts';

/** Shared helpers of the run-engine tests (not a test file itself). */

export interface RunEventJson {
  id: string;
  type: string;
  summary: string;
  details: Record<string, unknown> | null;
}

/** `t.req`, or requests against another app instance of the same database (restart tests). */
export type Req = (o: {
  method: 'GET' | 'POST';
  url: string;
  token: string;
  body?: unknown;
}) => ReturnType<TestApp['req']>;

/** Starts a crew or flow run (optionally in a conversation); expects 201 and returns the run's id. */
export async function startRun(
  req: Req,
  token: string,
  kind: 'crew' | 'flow',
  definitionId: string,
  opts: { conversationId?: string; inputs?: Record<string, string> } = {},
): Promise<string> {
  const query = opts.conversationId ? `?conversation_id=${opts.conversationId}` : '';
  const res = await req({
    method: 'POST',
    url: `/api/${kind}-runs/${query}`,
    token,
    body: { [`${kind}_id`]: definitionId, ...(opts.inputs ? { inputs: opts.inputs } : {}) },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json()[`${kind}_run_id`] as string;
}

export async function waitForStatus(
  req: Req,
  token: string,
  kind: 'crew' | 'flow',
  id: string,
  statuses: string[],
  timeoutMs = 15_000,
): Promise<Record<string, unknown>> {
  const deadline = Date.now() + timeoutMs;
  let last: Record<string, unknown> = {};
  while (Date.now() < deadline) {
    const res = await req({ method: 'GET', url: `/api/${kind}-runs/${id}`, token });
    last = res.json();
    if (statuses.includes(String(last.status))) return last;
    await new Promise((r) => setTimeout(r, 40));
  }
  throw new Error(`run ${id} stayed ${String(last.status)} (wanted ${statuses.join('/')})`);
}

export async function timelineOf(req: Req, token: string, kind: 'crew' | 'flow', id: string) {
  const res = await req({ method: 'GET', url: `/api/${kind}-runs/${id}/timeline`, token });
  expect(res.statusCode).toBe(200);
  return res.json().timeline as RunEventJson[];
}

export async function createConversation(t: TestApp, user: TestUser, name = 'Run test'): Promise<string> {
  const res = await t.req({ method: 'POST', url: '/api/conversations/', token: user.token, body: { name } });
  expect(res.statusCode).toBe(201);
  return res.json().id as string;
}

export async function builtinAgentIds(t: TestApp, user: TestUser): Promise<Record<string, string>> {
  const res = await t.req({ method: 'GET', url: '/api/agents/', token: user.token });
  return Object.fromEntries(
    (res.json() as { id: string; name: string; isAutoGen: boolean }[])
      .filter((a) => a.isAutoGen)
      .map((a) => [a.name, a.id]),
  );
}

/** A local HTTP endpoint for HTTP tools: counts hits per path; `/slow` answers after `slowMs` (once). */
export async function startToolServer() {
  const hits = new Map<string, number>();
  let slowMs = 0;
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    hits.set(path, (hits.get(path) ?? 0) + 1);
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      const answer = () => {
        if (res.destroyed) return;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ path, received: body, answer: `tool-answer-${path.slice(1)}` }));
      };
      if (path === '/slow' && slowMs > 0) {
        const ms = slowMs;
        slowMs = 0;
        setTimeout(answer, ms);
      } else answer();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  return {
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    hits: (path: string) => hits.get(path) ?? 0,
    slowOnce(ms: number) {
      slowMs = ms;
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

export interface RecordedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A local endpoint that records every request it gets (what left the building, and how often). */
export async function startRecordingServer() {
  const received: RecordedRequest[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      received.push({ method: req.method ?? '', path: req.url ?? '/', headers: req.headers, body });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ ok: true, answer: 'recorded-answer' }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  return {
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    received,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
