import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { pct, signIn, startOwnServer } from '../own-server.ts';
import type { ScenarioGroup } from './types.ts';
import { collectBenchGarbage, quietNote, waitForQuietMachine } from '../quiet-client.ts';
import { eachRepeat, medianRepeat } from '../repeats.ts';

/**
 * The run engine under load (issue 5): a server of its own (the built one) whose models are a local
 * OpenAI-compatible mock (20 ms per answer), so the measure is the engine, not a model.
 * 1. 200 concurrent runs of a three-task crew, each followed by one SSE client: runs completed per
 *    second, and the delivery latency of every event from its write (`ts`) to the SSE client.
 * 2. 1,000 SSE clients following 50 runs (20 each): delivery latency and that every client saw the end.
 */

const MODEL_DELAY_MS = 20;
const CONCURRENT_RUNS = 200;
const FOLLOWED_RUNS = 50;
const CLIENTS_PER_RUN = 20;
const CEO = 'ceo@demo.example';
/** ARCHITECTURE.md section 8: one event to 1,000 streams, client-observed p99 ≤ 50 ms. */
const FANOUT_P99_BUDGET_MS = 50;

/**
 * A mock model answering every request after MODEL_DELAY_MS; while the gate is closed, requests wait
 * for it (the fan-out phase opens every follower first, so the runs' events are delivered live).
 */
async function startMockModel() {
  let n = 0;
  let gate: Promise<void> = Promise.resolve();
  let openGate = () => {};
  const server = http.createServer((req, res) => {
    if (req.method === 'GET') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ object: 'list', data: [{ id: 'gpt-5-chat', object: 'model' }] }));
      return;
    }
    req.resume();
    req.on('end', async () => {
      n++;
      await gate;
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            id: `c${n}`,
            object: 'chat.completion',
            created: 0,
            model: 'gpt-5-chat',
            choices: [
              { index: 0, message: { role: 'assistant', content: `Output ${n}` }, finish_reason: 'stop' },
            ],
            usage: { prompt_tokens: 10, completion_tokens: 2, total_tokens: 12 },
          }),
        );
      }, MODEL_DELAY_MS);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    calls: () => n,
    closeGate: () => {
      gate = new Promise((r) => {
        openGate = r;
      });
    },
    openGate: () => openGate(),
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

interface Follow {
  /** Write→receive latency of each event written after the stream opened. */
  latencies: number[];
  /** The type of each of those events (task_start, thought, crew_end, …), in the same order. */
  types: string[];
  /** Resolves once the stream is open (its response headers arrived), with the time it took. */
  opened: Promise<number>;
  ended: Promise<boolean>;
}

/**
 * An SSE client on a run's stream, on a raw socket of its own: it writes the GET itself and reads only
 * each event's `ts` and `type`. A thousand streams share this process with the mock model, so an HTTP
 * client's parser, string decoding and a JSON.parse per event would be the bench's own latency, not
 * the server's (the comms fan-out client does the same). Records write→receive latency of each event
 * written after the stream opened; resolves at the end.
 */
function follow(baseURL: string, runId: string, token: string): Follow {
  const latencies: number[] = [];
  const types: string[] = [];
  const requestedAt = Date.now();
  let markOpen: (ms: number) => void = () => {};
  const opened = new Promise<number>((r) => {
    markOpen = r;
  });
  const ended = new Promise<boolean>((resolve) => {
    const { hostname, port } = new URL(baseURL);
    const socket = net.connect({ host: hostname, port: Number(port) });
    socket.setNoDelay(true);
    let openedAt = 0;
    let terminal = false;
    let buffered = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      const now = Date.now();
      if (openedAt === 0) {
        if (!chunk.startsWith('HTTP/1.1 200')) {
          socket.destroy();
          return resolve(false);
        }
        // Only events written after the stream opened are deliveries; the ones before it are replayed
        // history, whose wait is the stream's opening time (reported on its own).
        openedAt = now;
        markOpen(openedAt - requestedAt);
      }
      buffered += chunk;
      const cut = buffered.lastIndexOf('\n\n');
      if (cut < 0) return;
      const complete = buffered.slice(0, cut);
      buffered = buffered.slice(cut + 2);
      for (const m of complete.matchAll(TS_AND_TYPE)) {
        const written = Date.parse(m[1] ?? m[4]);
        const type = m[2] ?? m[3];
        if (written >= openedAt) {
          latencies.push(now - written);
          types.push(type);
        }
        if (type === 'crew_end' || type === 'crew_error') terminal = true;
      }
      // The stream's last event: the server keeps the connection for the next request, so close it here.
      if (terminal) {
        socket.destroy();
        resolve(true);
      }
    });
    socket.on('close', () => resolve(terminal));
    socket.on('error', () => resolve(false));
    socket.write(
      `GET /api/crew-runs/${runId}/events?token=${encodeURIComponent(token)} HTTP/1.1\r\n` +
        `Host: ${hostname}:${port}\r\nAccept: text/event-stream\r\nConnection: close\r\n\r\n`,
    );
  });
  // A stream that failed never opens: its open time is NaN (left out of the figures).
  void ended.then(() => markOpen(Number.NaN));
  return { latencies, types, opened, ended };
}

/** Delivery p50/p99 of each event type: which part of a run's timeline makes the tail. */
function byType(fans: Follow[]): string {
  const of = new Map<string, number[]>();
  for (const f of fans)
    f.types.forEach((type, i) => {
      const list = of.get(type) ?? [];
      list.push(f.latencies[i]);
      of.set(type, list);
    });
  return [...of]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([type, ms]) => `${type} ${ms.length}× p50 ${pct(ms, 50)} / p99 ${pct(ms, 99)} ms`)
    .join(', ');
}

/** An event's write time and type, in either order, from its `data:` JSON. */
const TS_AND_TYPE = /"ts":"([^"]+)"[^\n]*?"type":"([^"]+)"|"type":"([^"]+)"[^\n]*?"ts":"([^"]+)"/g;

async function api(baseURL: string, token: string, method: string, url: string, body?: unknown) {
  const res = await fetch(baseURL + url, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
  return res.json() as Promise<Record<string, unknown>>;
}

export const runsBench: ScenarioGroup = {
  name: 'runs',
  description: '200 concurrent three-task crew runs on a mock model; 1,000 SSE clients following runs',
  async run(ctx) {
    const notes: string[] = [];
    const model = await startMockModel();
    const server = await startOwnServer({
      name: 'runs',
      env: { OPENAI_BASE_URL: model.baseUrl, OPENAI_API_KEY: 'bench', RUN_WORKER_CONCURRENCY: '64' },
    });
    const agent = new http.Agent({ keepAlive: true, maxSockets: 2_000 });
    try {
      const token = await signIn(server.baseURL, CEO);
      const a = await api(server.baseURL, token, 'POST', '/api/agents/', {
        name: 'Bench agent',
        role: 'Bencher',
        goal: 'Answer fast',
        llmModel: 'gpt-5-chat',
      });
      const crew = await api(server.baseURL, token, 'POST', '/api/crews/', {
        name: 'Bench crew',
        version: '1',
        tasks: ['one', 'two', 'three'].map((x) => ({ name: x, description: `Task ${x}`, agent_id: a.id })),
      });

      const startRuns = async (count: number) =>
        Promise.all(
          Array.from({ length: count }, async () => {
            const r = await api(server.baseURL, token, 'POST', '/api/crew-runs/', { crew_id: crew.id });
            return r.crew_run_id as string;
          }),
        );

      // 1. Throughput and delivery latency with one follower per run.
      const t0 = Date.now();
      const ids = await startRuns(CONCURRENT_RUNS);
      const follows = ids.map((id) => follow(server.baseURL, id, token));
      const ends = await Promise.all(follows.map((f) => f.ended));
      const seconds = (Date.now() - t0) / 1000;
      const lat = follows.flatMap((f) => f.latencies);
      const completed = ends.filter(Boolean).length;
      notes.push(
        `${CONCURRENT_RUNS} concurrent 3-task crew runs (mock model ${MODEL_DELAY_MS} ms/answer, worker concurrency 64): ` +
          `${completed} ended in ${seconds.toFixed(1)} s = ${(completed / seconds).toFixed(1)} runs/s; ` +
          `event write→SSE client p50 ${pct(lat, 50)} ms, p99 ${pct(lat, 99)} ms over ${lat.length} live events`,
      );

      // 2. Fan-out: 1,000 clients on 50 running runs. The model holds its answers until every client
      // is following, so the runs' events after their start are delivered live to 20 clients each.
      // Repeated (fresh runs and clients each time); the median repeat is checked against the budget.
      const fanOut = async () => {
        model.closeGate();
        const runIds = await startRuns(FOLLOWED_RUNS);
        const fans = runIds.flatMap((id) =>
          Array.from({ length: CLIENTS_PER_RUN }, () => follow(server.baseURL, id, token)),
        );
        const openTimes = (await Promise.all(fans.map((f) => f.opened))).filter((ms) => !Number.isNaN(ms));
        const quiet = await waitForQuietMachine();
        collectBenchGarbage();
        model.openGate();
        const fanEnds = await Promise.all(fans.map((f) => f.ended));
        const fanLat = fans.flatMap((f) => f.latencies);
        return {
          fans,
          openTimes,
          quiet,
          sawEnd: fanEnds.filter(Boolean).length,
          fanLat,
          p99: pct(fanLat, 99),
        };
      };
      const repeats: Awaited<ReturnType<typeof fanOut>>[] = [];
      for (let i = 0; i < ctx.settings.latencyRepeats; i++) repeats.push(await fanOut());
      const m = medianRepeat(repeats, (r) => r.p99);
      notes.push(
        `${m.fans.length} SSE clients on ${FOLLOWED_RUNS} running runs: ${m.sawEnd} saw the end; ` +
          `${quietNote(m.quiet)}; delivery (write → client), median of ${repeats.length} fan-outs: p50 ${pct(m.fanLat, 50)} ms, p99 ${m.p99} ms over ${m.fanLat.length} live events ` +
          `(budget ${FANOUT_P99_BUDGET_MS} ms: ${m.p99 <= FANOUT_P99_BUDGET_MS ? 'PASS' : 'FAIL'}); ` +
          `each fan-out's p99: ${eachRepeat(repeats.map((r) => r.p99))}; ` +
          `opening the ${m.fans.length} streams at once: p50 ${pct(m.openTimes, 50)} ms, p99 ${pct(m.openTimes, 99)} ms; model calls ${model.calls()}; ` +
          `by event type: ${byType(m.fans)}`,
      );
    } finally {
      agent.destroy();
      await server.stop();
      await model.close();
    }
    return { notes };
  },
};
