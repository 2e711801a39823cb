import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { measure } from './http.ts';

const settings = {
  duration: 1,
  runs: 1,
  warmup: 0,
  rounds: 1,
  latencyRepeats: 1,
  connections: 2,
  authConnections: 1,
  only: [],
  engines: ['sqlite' as const],
};

let server: http.Server | null = null;
afterEach(() => {
  server?.close();
  server = null;
});

it('measure() with `rotate` sends the header sets in turn, on top of the fixed headers', async () => {
  const seen: string[] = [];
  const fixed: string[] = [];
  server = http.createServer((req, res) => {
    seen.push(String(req.headers.authorization));
    fixed.push(String(req.headers['x-fixed']));
    res.setHeader('content-type', 'application/json');
    res.end('{"ok":true}');
  });
  await new Promise<void>((r) => server?.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  const rotate = ['u1', 'u2', 'u3', 'u4', 'u5'].map((u) => ({ authorization: `Bearer ${u}` }));
  const result = await measure(
    `http://127.0.0.1:${port}`,
    'test',
    { name: 'rotating', method: 'GET', path: '/list', headers: { 'x-fixed': 'yes' }, rotate },
    { ...settings, runs: 1 },
    null,
  );
  expect(result.requests).toBeGreaterThan(10);
  // The probe takes the first set; the load goes through all of them, one request each in turn.
  expect(seen[0]).toBe('Bearer u1');
  expect(new Set(seen)).toEqual(new Set(rotate.map((r) => r.authorization)));
  const load = seen.slice(1, 11);
  expect(new Set(load).size).toBe(5);
  expect(new Set(fixed)).toEqual(new Set(['yes']));
});
