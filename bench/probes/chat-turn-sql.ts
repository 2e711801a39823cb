/**
 * What a chat turn does before its model request leaves (issue #18's burst of turns): every statement
 * from the POST to the mock model's receipt of the request, with times, and the server CPU per turn.
 * Usage: npx tsx bench/probes/chat-turn-sql.ts   (a throwaway SQLite database; TURNS=20 by default)
 */
import { randomBytes } from 'node:crypto';
import { subscribe } from 'node:diagnostics_channel';
import { readFileSync, writeFileSync } from 'node:fs';
import { startMockOpenAI } from '../../server/test/mock-openai.ts';
import { probeApp } from './probe-app.ts';
import { timeStatements } from './statement-times.ts';

/**
 * CPU time of this process's main thread in µs (Linux schedstat: nanoseconds on the CPU), so helper
 * threads (GC, the libuv pool's fsyncs) and other processes on a loaded machine weigh less than in
 * process.cpuUsage(); elsewhere process.cpuUsage().
 */
const mainThreadCpu = (() => {
  const file = `/proc/self/task/${process.pid}/schedstat`;
  try {
    readFileSync(file, 'utf8');
    return () => Number(readFileSync(file, 'utf8').split(' ')[0]) / 1000;
  } catch {
    return () => {
      const u = process.cpuUsage();
      return u.user + u.system;
    };
  }
})();

async function main() {
  // TURN_SQL_TIMES=1: time every statement of the measured turns, by SQL.
  let timing = false;
  const statements = process.env.TURN_SQL_TIMES ? timeStatements(() => timing) : null;
  const mock = await startMockOpenAI({ models: ['gpt-5-chat'] });
  const { app, ctx, auth } = await probeApp('chat-probe', {
    OPENAI_API_KEY: 'probe',
    OPENAI_BASE_URL: mock.url,
  });
  const conv = await app.inject({ method: 'POST', url: '/api/conversations/', headers: auth, payload: {} });
  const id = conv.json().id as string;
  const turn = () =>
    app.inject({
      method: 'POST',
      url: `/api/conversations/${id}/chat`,
      headers: auth,
      payload: { message_text: 'Hello there', model: 'gpt-5-chat', context_messages: 0 },
    });
  for (let i = 0; i < 3; i++) await turn();
  const log: [number, string][] = [];
  let t0 = 0;
  const changes = ctx.changes;
  if (changes) {
    changes.onRead = (q) => log.push([performance.now() - t0, `read  ${q.slice(0, 150)}`]);
    const changed = changes.changed.bind(changes);
    changes.changed = (tables) => {
      log.push([performance.now() - t0, `write ${JSON.stringify(tables)}`]);
      return changed(tables);
    };
  }
  const before = mock.chatRequests().length;
  t0 = performance.now();
  const res = await turn();
  const req = mock.chatRequests()[before];
  for (const [t, q] of log)
    if (t <= req.receivedAt - t0 + 1) console.log(`${t.toFixed(2).padStart(7)} ms  ${q}`);
  console.log(`model request received at ${(req.receivedAt - t0).toFixed(2)} ms; answered ${res.statusCode}`);
  if (changes) changes.onRead = null;
  const n = Number(process.env.TURNS ?? 20);
  // The setup of a turn: from its POST to its model request leaving the app (the moment the app's
  // HTTP client creates it), in CPU; and each setup's bounds on the monotonic clock a --cpu-prof
  // profile's timestamps use (µs), for TURN_WINDOWS_FILE.
  let setupFrom: NodeJS.CpuUsage | null = null;
  let setupCpu = 0;
  const windows: [bigint, bigint][] = [];
  subscribe('http.client.request.start', (m) => {
    const path = (m as { request: { path: string } }).request.path;
    if (!setupFrom || !path.endsWith('/chat/completions')) return;
    const used = process.cpuUsage(setupFrom);
    setupCpu += used.user + used.system;
    setupFrom = null;
    windows[windows.length - 1][1] = process.hrtime.bigint() / 1000n;
  });
  const cpu = process.cpuUsage();
  const mainCpu = mainThreadCpu();
  const t = performance.now();
  timing = true;
  for (let i = 0; i < n; i++) {
    windows.push([process.hrtime.bigint() / 1000n, 0n]);
    setupFrom = process.cpuUsage();
    await turn();
  }
  timing = false;
  const used = process.cpuUsage(cpu);
  const usedMain = mainThreadCpu() - mainCpu;
  statements?.print(n, 'turn');
  console.log(
    `per turn (server + mock in this process): cpu ${((used.user + used.system) / n / 1000).toFixed(2)} ms (main thread ${(usedMain / n / 1000).toFixed(2)} ms), wall ${((performance.now() - t) / n).toFixed(2)} ms`,
  );
  console.log(`setup per turn (POST → model request leaves): cpu ${(setupCpu / n / 1000).toFixed(2)} ms`);
  if (process.env.TURN_WINDOWS_FILE)
    writeFileSync(process.env.TURN_WINDOWS_FILE, windows.map(([a, b]) => `${a} ${b}`).join('\n'));
  // A burst: BURST turns in as many conversations at once, POST → the model request, per turn.
  const burst = Number(process.env.BURST ?? 50);
  const ids = await Promise.all(
    Array.from(
      { length: burst },
      async () =>
        (await app.inject({ method: 'POST', url: '/api/conversations/', headers: auth, payload: {} })).json()
          .id as string,
    ),
  );
  const start = mock.chatRequests().length;
  const sent = performance.now();
  const markers = ids.map((_, i) => `burst-${i}-${randomBytes(3).toString('hex')}`);
  // BURST_HTTP=1: the turns over real sockets to the listening app (else app.inject, no sockets).
  const base = process.env.BURST_HTTP ? await app.listen({ port: 0, host: '127.0.0.1' }) : null;
  await Promise.all(
    ids.map((cid, i) => {
      const payload = { message_text: markers[i], model: 'gpt-5-chat', context_messages: 0 };
      if (!base)
        return app.inject({ method: 'POST', url: `/api/conversations/${cid}/chat`, headers: auth, payload });
      return fetch(`${base}/api/conversations/${cid}/chat`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify(payload),
      }).then((r) => r.arrayBuffer());
    }),
  );
  const got = mock
    .chatRequests()
    .slice(start)
    .map((r) => r.receivedAt - sent)
    .sort((a, b) => a - b);
  console.log(
    `burst of ${burst}: POST → model request p50 ${got[Math.floor(got.length / 2)].toFixed(1)} ms, max ${got[got.length - 1].toFixed(1)} ms`,
  );
  await app.close();
  await mock.close();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
