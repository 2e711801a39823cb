import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { pct, readEvents, signIn, startOwnServer } from '../own-server.ts';
import type { ScenarioGroup } from './types.ts';

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

async function startMockModel() {
  let n = 0;
  const server = http.createServer((req, res) => {
    if (req.method === 'GET') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ object: 'list', data: [{ id: 'gpt-5-chat', object: 'model' }] }));
      return;
    }
    req.resume();
    req.on('end', () => {
      n++;
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
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

interface Follow {
  latencies: number[];
  ended: Promise<boolean>;
}

/** An SSE client on a run's stream; records write→receive latency of each event; resolves at the end. */
function follow(baseURL: string, runId: string, token: string, agent: http.Agent): Follow {
  const latencies: number[] = [];
  // Only events written after the stream opened: replayed history would measure the wait, not delivery.
  const openedAt = Date.now();
  const ended = new Promise<boolean>((resolve) => {
    const req = http.get(
      `${baseURL}/api/crew-runs/${runId}/events?token=${encodeURIComponent(token)}`,
      { agent, headers: { accept: 'text/event-stream' } },
      (res) => {
        if (res.statusCode !== 200) {
          res.resume();
          return resolve(false);
        }
        let terminal = false;
        readEvents(res, (data) => {
          const ev = JSON.parse(data) as { ts: string; type: string };
          const written = Date.parse(ev.ts);
          if (written >= openedAt) latencies.push(Date.now() - written);
          if (ev.type === 'crew_end' || ev.type === 'crew_error') terminal = true;
        });
        res.on('end', () => resolve(terminal));
        res.on('error', () => resolve(false));
      },
    );
    req.on('error', () => resolve(false));
  });
  return { latencies, ended };
}

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
  async run() {
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
      const follows = ids.map((id) => follow(server.baseURL, id, token, agent));
      const ends = await Promise.all(follows.map((f) => f.ended));
      const seconds = (Date.now() - t0) / 1000;
      const lat = follows.flatMap((f) => f.latencies);
      const completed = ends.filter(Boolean).length;
      notes.push(
        `${CONCURRENT_RUNS} concurrent 3-task crew runs (mock model ${MODEL_DELAY_MS} ms/answer, worker concurrency 64): ` +
          `${completed} ended in ${seconds.toFixed(1)} s = ${(completed / seconds).toFixed(1)} runs/s; ` +
          `event write→SSE client p50 ${pct(lat, 50)} ms, p99 ${pct(lat, 99)} ms over ${lat.length} live events`,
      );

      // 2. Fan-out: 1,000 clients on 50 runs.
      const runIds = await startRuns(FOLLOWED_RUNS);
      const fans = runIds.flatMap((id) =>
        Array.from({ length: CLIENTS_PER_RUN }, () => follow(server.baseURL, id, token, agent)),
      );
      const fanEnds = await Promise.all(fans.map((f) => f.ended));
      const fanLat = fans.flatMap((f) => f.latencies);
      const p99 = pct(fanLat, 99);
      notes.push(
        `${fans.length} SSE clients on ${FOLLOWED_RUNS} runs: ${fanEnds.filter(Boolean).length} saw the end; ` +
          `delivery p50 ${pct(fanLat, 50)} ms, p99 ${p99} ms (budget ${FANOUT_P99_BUDGET_MS} ms: ` +
          `${p99 <= FANOUT_P99_BUDGET_MS ? 'within' : 'OVER'}); model calls ${model.calls()}`,
      );
    } finally {
      agent.destroy();
      await server.stop();
      await model.close();
    }
    return { notes };
  },
};
