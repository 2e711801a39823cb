import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { measure } from './http.ts';

const settings = {
  duration: 1,
  runs: 1,
  warmup: 0,
  controlPair: 1,
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

it("measure() with a paired control runs the control before each run and takes the median of the pairs' ratios", async () => {
  const paths: string[] = [];
  server = http.createServer((req, res) => {
    paths.push(String(req.url));
    res.setHeader('content-type', 'application/json');
    res.end('{"ok":true}');
  });
  await new Promise<void>((r) => server?.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  const baseURL = `http://127.0.0.1:${port}`;
  const control = await measure(
    baseURL,
    'control',
    { name: 'control', method: 'GET', path: '/healthz' },
    settings,
    null,
  );
  const result = await measure(
    baseURL,
    'test',
    { name: 'list', method: 'GET', path: '/list' },
    { ...settings, runs: 3 },
    control,
    { pairedControl: true },
  );
  expect(result.control_runs).toHaveLength(3);
  for (const c of result.control_runs ?? []) expect(c).toBeGreaterThan(0);
  const ratios = result.runs
    .map((r, i) => r.req_per_sec / (result.control_runs?.[i] ?? 1))
    .sort((a, b) => a - b);
  expect(result.ratio_to_control).toBeCloseTo(ratios[1], 3);
  // The probe, then control, list, control, list, control, list (each a block of requests).
  const blocks = paths.filter((p, i) => i === 0 || p !== paths[i - 1]);
  expect(blocks.slice(-7)).toEqual(['/list', '/healthz', '/list', '/healthz', '/list', '/healthz', '/list']);
  // Without the option the ratio is to the control given, as before.
  const plain = await measure(
    baseURL,
    'test',
    { name: 'list', method: 'GET', path: '/list' },
    settings,
    control,
  );
  expect(plain.control_runs).toBeUndefined();
  expect(plain.ratio_to_control).toBeCloseTo(plain.req_per_sec / control.req_per_sec, 3);
}, 30_000);
