import { createServer, type Server } from 'node:http';
import type { TConnection } from '@cc/contract';
import { expect } from 'vitest';
import type { TestApp, TestUser } from '../../../test/helpers.ts';

/** Shared by the connections tests (not a test file itself). */

/** The app may reach servers on this machine: the operator's allow-list, as the docs say. */
export const LOOPBACK_ALLOWED = { AI_HTTP_ALLOWLIST: '127.0.0.1' };

/** Polls the caller's connection until `done` holds (or fails after `ms`), returning it. */
export async function waitForConnection(
  t: TestApp,
  user: TestUser,
  id: string,
  done: (c: TConnection) => boolean,
  ms = 15_000,
): Promise<TConnection> {
  const deadline = Date.now() + ms;
  let last: TConnection | undefined;
  while (Date.now() < deadline) {
    const res = await t.req({ method: 'GET', url: '/api/connections/', token: user.token });
    last = (res.json() as TConnection[]).find((c) => c.id === id);
    if (last && done(last)) return last;
    await new Promise((r) => setTimeout(r, 100));
  }
  expect.fail(`connection ${id} did not reach the expected state in ${ms} ms: ${JSON.stringify(last)}`);
}

/** After a sync that started after `since`: synced (connected) or failed (error). */
export const syncedAfter = (since: string) => (c: TConnection) =>
  (c.status === 'connected' && (c.last_synced_at ?? '') > since) ||
  (c.status === 'error' && c.updated_at > since);

export async function addConnection(
  t: TestApp,
  user: TestUser,
  body: Record<string, unknown>,
): Promise<TConnection> {
  const res = await t.req({ method: 'POST', url: '/api/connections/', token: user.token, body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

/** A tiny HTTP server answering one path with whatever body (and status) the test sets. */
export interface FileServer {
  url: string;
  set(body: string, status?: number): void;
  /** Requests it has answered. */
  hits(): number;
  close(): Promise<void>;
}

export async function serveFile(path = '/calendar.ics'): Promise<FileServer> {
  let body = '';
  let status = 200;
  let hits = 0;
  const server: Server = createServer((req, res) => {
    hits += 1;
    if (req.url !== path) return res.writeHead(404).end();
    res.writeHead(status, { 'content-type': 'text/calendar; charset=utf-8' }).end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}${path}`,
    set(b, s = 200) {
      body = b;
      status = s;
    },
    hits: () => hits,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** An iCalendar file of the given VEVENT blocks (CRLF lines, as servers send). */
export function ics(...events: string[]): string {
  return [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Command Centre tests//EN',
    ...events,
    'END:VCALENDAR',
    '',
  ].join('\r\n');
}

/** YYYYMMDD of a date (UTC fields). */
export const ymd = (d: Date) => d.toISOString().slice(0, 10).replace(/-/g, '');

/** The next switch of Europe/Berlin's clocks after `from`: the last Sunday of March or October, 01:00 UTC. */
export function nextBerlinClockChange(from: Date): Date {
  const lastSunday = (year: number, month: number) => {
    const d = new Date(Date.UTC(year, month + 1, 0, 1));
    d.setUTCDate(d.getUTCDate() - d.getUTCDay());
    return d;
  };
  const candidates = [0, 1].flatMap((k) => [
    lastSunday(from.getUTCFullYear() + k, 2),
    lastSunday(from.getUTCFullYear() + k, 9),
  ]);
  return candidates.filter((d) => d > from).sort((a, b) => a.getTime() - b.getTime())[0];
}
