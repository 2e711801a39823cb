import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { providerFetch } from '../../../server/src/ai/net/provider-fetch.ts';
import { runToolLoop } from '../../../server/src/ai/tool-loop.ts';
import { type MockOpenAI, startMockOpenAI } from '../../../server/test/mock-openai.ts';
import { type BudgetCheck, latencyRatioBudget } from '../budgets.ts';
import { type FloorServer, startFloor } from '../floors.ts';
import { measure } from '../http.ts';
import { BackendCpu, median, processCpuMs } from '../interleave.ts';
import { startMockModelProcess, type UpstreamTimes } from '../mock-model-process.ts';
import { openSeedDb } from '../seed-db.ts';
import { pct as rankPct, readEvents, signIn, startOwnServer } from '../own-server.ts';
import type { ScenarioGroup } from './types.ts';
import { collectBenchGarbage, type QuietWait, quietNote, waitForQuietMachine } from '../quiet-client.ts';

/**
 * Chat (issue 4, issue 48, ARCHITECTURE.md section 8):
 * 1. Long conversation: the latest page (50) of a 5,000-message conversation, among 10k conversations,
 *    under load on the shared bench server — ≤ 64 KB (its p99 is printed; no floor reads it yet).
 * 2. Streaming against the chat floor (bench/floors/chat-floor.ts, a minimal SSE proxy of the same
 *    mock model stream): a server of its own pointed at the mock OpenAI-compatible model
 *    (OPENAI_BASE_URL), which notes when it received each model request and wrote each chunk. Each
 *    turn carries a unique marker, so its model request is found; the app's deltas arrive on the
 *    conversation's SSE stream, the floor's on its POST's response. Sequential turns, direct from the
 *    mock, through the model layer alone, through the app and through the floor in turn: what the app
 *    adds to the model's own first token ≤ 4× what the floor adds. Then 50 turns at once, app and floor
 *    in turn for BENCH_ROUNDS rounds: first token p50 ≤ 2× the floor's and CPU per turn (the server
 *    process, plus its PostgreSQL backends) ≤ 2.5× the floor's, each the median of the per-round ratios.
 *    The per-chunk figures are printed, with an alarm past twice the floor's.
 */
const LONG_MESSAGES = 5000;
const CONVERSATIONS = 10_000;
const PAGE_BYTES_BUDGET = 64 * 1024;
/** Section 8, against the chat floor (medians of per-round ratios for the burst). */
const SEQUENTIAL_ADDED_MAX = 4;
const BURST_FIRST_TOKEN_MAX = 2;
const BURST_CPU_MAX = 2.5;
const CHUNKS = 20;
const CHUNK_DELAY_MS = 15;
const SEQUENTIAL_TURNS = 30;
const CONCURRENT_STREAMS = 50;

const pct = (values: number[], p: number) => rankPct(values, p, 2);

const SENTENCES = [
  'We should review the hiring plan before the board meeting.',
  'Revenue grew 12% quarter over quarter, ahead of the forecast.',
  'The vendor contract renewal needs legal sign-off by Friday.',
  'Churn in the SMB segment is the KPI that lags the most.',
  'Let us draft three options for the pricing change and compare them.',
  'The launch checklist still has four open items.',
];

/**
 * A 5,000-message conversation for the ceo plus 10k small ones, written straight into the server's
 * database (SQLite in WAL mode or PostgreSQL, see seed-db.ts).
 */
async function seedLongConversation(databaseUrl: string, ownerEmail: string): Promise<string> {
  const db = await openSeedDb(databaseUrl);
  try {
    const owner = (await db.get<{ id: string }>('select id from users where email = ?', [ownerEmail])) as {
      id: string;
    };
    const users = (await db.all<{ id: string }>('select id from users')).map((u) => u.id);
    const now = Date.now();
    const iso = (ms: number) => new Date(ms).toISOString();
    const longId = randomUUID();
    // SQLite takes the next seq from the bench; PostgreSQL from its sequence (the column default), which
    // must stay ahead of every seq in the table.
    const explicitSeq = db.engine === 'sqlite';
    let seq = Number(
      (await db.get<{ s: number | string }>('select coalesce(max(seq), 0) as s from conversation_messages'))
        ?.s ?? 0,
    );
    const conversations: unknown[][] = [];
    for (let i = 0; i < CONVERSATIONS; i++) {
      const t = iso(now - (CONVERSATIONS - i) * 60_000);
      conversations.push([randomUUID(), users[i % users.length], `Conversation ${i}`, t, t]);
    }
    conversations.push([longId, owner.id, 'Five thousand messages', iso(now - 86_400_000), iso(now)]);
    await db.insert('conversations', ['id', 'user_id', 'name', 'created_at', 'updated_at'], conversations);
    const messages: unknown[][] = [];
    for (let i = 0; i < LONG_MESSAGES; i++) {
      const user = i % 2 === 0;
      const n = user ? 1 + (i % 2) : 4 + (i % 6);
      const text = Array.from({ length: n }, (_, k) => SENTENCES[(i + k) % SENTENCES.length]).join(' ');
      const t = iso(now - (LONG_MESSAGES - i) * 30_000);
      seq += 1;
      messages.push([
        randomUUID(),
        longId,
        ...(explicitSeq ? [seq] : []),
        user ? 'user' : 'assistant',
        user ? text : `**Answer ${i}.** ${text}\n\n- ${SENTENCES[i % 6]}\n- ${SENTENCES[(i + 1) % 6]}`,
        'complete',
        user ? null : 'gpt-5-chat',
        user ? null : 300 + (i % 50),
        user ? null : 60 + (i % 40),
        t,
        t,
      ]);
    }
    await db.insert(
      'conversation_messages',
      [
        'id',
        'conversation_id',
        ...(explicitSeq ? ['seq'] : []),
        'sender',
        'text',
        'status',
        'model',
        'input_tokens',
        'output_tokens',
        'created_at',
        'updated_at',
      ],
      messages,
    );
    await db.analyze();
    return longId;
  } finally {
    await db.close();
  }
}

interface AppStream {
  /** Delta arrival times (performance.now()) since `mark()`. */
  deltas: number[];
  mark: () => void;
  waitFor: (n: number, timeoutMs?: number) => Promise<void>;
  close: () => void;
}

function openAppStream(baseURL: string, conversationId: string, token: string): Promise<AppStream> {
  return new Promise((resolve, reject) => {
    const deltas: number[] = [];
    const waiters: { n: number; done: () => void }[] = [];
    const req = http.get(`${baseURL}/api/conversations/${conversationId}/events?token=${token}`, (res) => {
      readEvents(res, (_data, at, event) => {
        if (event !== 'delta') return;
        deltas.push(at);
        for (const w of [...waiters]) if (deltas.length >= w.n) w.done();
      });
      resolve({
        deltas,
        mark: () => {
          deltas.length = 0;
        },
        waitFor: (n, timeoutMs = 10_000) =>
          new Promise<void>((ok, fail) => {
            if (deltas.length >= n) return ok();
            const timer = setTimeout(
              () => fail(new Error(`only ${deltas.length}/${n} deltas arrived`)),
              timeoutMs,
            );
            waiters.push({
              n,
              done: () => {
                clearTimeout(timer);
                ok();
              },
            });
          }),
        close: () => req.destroy(),
      });
    });
    req.on('error', reject);
  });
}

const keepAlive = new http.Agent({ keepAlive: true });

/** One turn through the app; its model request is found by a unique marker in the message. */
async function appTurn(
  baseURL: string,
  conversationId: string,
  token: string,
  stream: AppStream,
  lookup: (marker: string) => Promise<UpstreamTimes>,
): Promise<RawTiming> {
  stream.mark();
  const marker = `bench-turn-${randomUUID()}`;
  const body = JSON.stringify({ message_text: `Hi ${marker}`, model: 'gpt-5-chat', context_messages: 0 });
  const sent = performance.now();
  // Raw HTTP, as the direct baseline reads the mock: the client library's own cost is not the app's.
  await new Promise<void>((resolve, reject) => {
    const req = http.request(
      `${baseURL}/api/conversations/${conversationId}/chat`,
      {
        method: 'POST',
        agent: keepAlive,
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
        },
      },
      (res) => {
        res.resume();
        res.on('end', () =>
          res.statusCode === 200 ? resolve() : reject(new Error(`chat: ${res.statusCode}`)),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
  await stream.waitFor(CHUNKS);
  const upstream = await lookup(marker);
  const deltas = [...stream.deltas];
  return {
    first: deltas[0] - sent,
    chunks: upstream.contentSentAt.slice(0, deltas.length).map((at, i) => deltas[i] - at),
    toModel: upstream.receivedAt - sent,
    firstChunkOut: deltas[0] - upstream.contentSentAt[0],
  };
}

/** The request a turn's marker went into; it must have streamed every chunk. */
function upstreamOf(mock: MockOpenAI, marker: string) {
  return streamedAll(mock.chatRequests().find((r) => JSON.stringify(r.body).includes(marker)));
}

function streamedAll<T extends UpstreamTimes>(upstream: T | null | undefined): T {
  if (!upstream || upstream.contentSentAt.length < CHUNKS)
    throw new Error('the model request of a turn was not found');
  return upstream;
}

/** A turn's model request in the in-process mock. */
const inProcess = (mock: MockOpenAI) => async (marker: string) => upstreamOf(mock, marker);

/** Raw latencies of one turn: request → first token, and per chunk its arrival − when the model wrote it. */
interface RawTiming {
  first: number;
  chunks: number[];
  /** App turns only: POST → the model request read by the mock, and the mock's first chunk → the client. */
  toModel?: number;
  firstChunkOut?: number;
}

/** The turn read straight from the mock over raw HTTP by this process: the baseline with no app. */
function directTurn(mock: MockOpenAI): Promise<RawTiming> {
  const marker = `bench-direct-${randomUUID()}`;
  const body = JSON.stringify({
    model: 'gpt-5-chat',
    stream: true,
    messages: [{ role: 'user', content: `Hi ${marker}` }],
  });
  return new Promise((resolve, reject) => {
    const arrivals: number[] = [];
    const sent = performance.now();
    const req = http.request(
      `${mock.url}/chat/completions`,
      { method: 'POST', agent: keepAlive, headers: { 'content-type': 'application/json' } },
      (res) => {
        readEvents(res, (data, at) => {
          if (data.includes('"content":"') && !data.includes('"content":""')) arrivals.push(at);
        });
        res.on('end', () => {
          try {
            const upstream = upstreamOf(mock, marker);
            resolve({
              first: arrivals[0] - sent,
              chunks: upstream.contentSentAt.map((at, i) => arrivals[i] - at),
            });
          } catch (err) {
            reject(err);
          }
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** One turn through the chat floor: its deltas arrive on the POST's own response. */
function floorTurn(floorURL: string, lookup: (marker: string) => Promise<UpstreamTimes>): Promise<RawTiming> {
  const marker = `bench-floor-${randomUUID()}`;
  const body = JSON.stringify({ message: `Hi ${marker}` });
  return new Promise((resolve, reject) => {
    const arrivals: number[] = [];
    const sent = performance.now();
    const req = http.request(
      `${floorURL}/chat`,
      {
        method: 'POST',
        agent: keepAlive,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        if (res.statusCode !== 200) return reject(new Error(`chat floor: ${res.statusCode}`));
        readEvents(res, (_data, at, event) => {
          if (event === 'delta') arrivals.push(at);
        });
        res.on('end', () => {
          lookup(marker).then(
            (upstream) =>
              resolve({
                first: arrivals[0] - sent,
                chunks: upstream.contentSentAt.map((at, i) => arrivals[i] - at),
                toModel: upstream.receivedAt - sent,
                firstChunkOut: arrivals[0] - upstream.contentSentAt[0],
              }),
            reject,
          );
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** The turn through the model layer alone: the app's provider and tool loop, no server. */
async function modelLayerTurn(mock: MockOpenAI): Promise<RawTiming> {
  const marker = `bench-model-${randomUUID()}`;
  const model = createOpenAICompatible({
    name: 'bench',
    baseURL: mock.url,
    includeUsage: true,
    fetch: providerFetch,
  }).chatModel('gpt-5-chat');
  const arrivals: number[] = [];
  const sent = performance.now();
  await runToolLoop({
    model,
    system: '',
    messages: [{ role: 'user', content: `Hi ${marker}` }],
    tools: {},
    maxSteps: 1,
    maxRetries: 0,
    abortSignal: new AbortController().signal,
    onText: () => arrivals.push(performance.now()),
  });
  const upstream = upstreamOf(mock, marker);
  return { first: arrivals[0] - sent, chunks: upstream.contentSentAt.map((at, i) => arrivals[i] - at) };
}

/** n streamed replies of CHUNKS chunks, CHUNK_DELAY_MS apart. */
const replies = (n: number) =>
  Array.from({ length: n }, () => ({
    kind: 'text' as const,
    chunks: Array.from({ length: CHUNKS }, (_, i) => `tok${i} `),
    delayMs: CHUNK_DELAY_MS,
  }));
const script = (mock: MockOpenAI, n: number) => mock.script(...replies(n));

async function createConversation(baseURL: string, token: string): Promise<string> {
  const res = await fetch(`${baseURL}/api/conversations/`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: '{}',
  });
  return ((await res.json()) as { id: string }).id;
}

/** CPU (ms) a server process and the PostgreSQL backends serving it have used so far. */
async function cpuNow(pid: number, backends: BackendCpu | null): Promise<Map<number, number>> {
  const pids = [pid, ...((await backends?.pids()) ?? [])];
  return new Map(pids.map((p) => [p, processCpuMs(p)]));
}

async function cpuSince(before: Map<number, number>, backends: BackendCpu | null): Promise<number> {
  const pids = new Set([...before.keys(), ...((await backends?.pids()) ?? [])]);
  let ms = 0;
  for (const p of pids) ms += Math.max(0, processCpuMs(p) - (before.get(p) ?? 0));
  return ms;
}

/** One side's burst: each turn's timings, the server's CPU per turn, and the wait for a quiet machine. */
export interface Burst {
  apps: RawTiming[];
  cpuPerTurnMs: number;
  quiet: QuietWait;
}

/** One round: the app's burst, then the chat floor's on the same model process. */
export interface BurstRound {
  app: Burst;
  floor: Burst;
}

/**
 * CONCURRENT_STREAMS turns sent at once, each in a conversation of its own followed by its stream,
 * then as many turns at once through the chat floor, `rounds` times in turn. The model here is a
 * process of its own (a model is another machine in production): with the mock in this process, its
 * receipt of each request waited on this process's own work for the fifty clients, which is no part
 * of what a user sees. A server of its own, warmed by a few turns first (the floor too).
 */
export async function burstsOfTurns(email: string, rounds: number): Promise<BurstRound[]> {
  const model = await startMockModelProcess();
  const server = await startOwnServer({
    name: 'chat-burst',
    env: { OPENAI_BASE_URL: model.url },
    withoutEnv: ['OPENAI_API_KEY', 'GOOGLE_GENERATIVE_AI_API_KEY'],
  });
  const floor = await startFloor('chat-floor', { env: { MODEL_URL: model.url } });
  const backends = await BackendCpu.open(server.databaseUrl);
  const lookup = async (marker: string) => streamedAll(await model.find(marker));
  try {
    const token = await signIn(server.baseURL, email);
    const warmId = await createConversation(server.baseURL, token);
    const warm = await openAppStream(server.baseURL, warmId, token);
    for (let i = 0; i < 5; i++) {
      await model.script(replies(2));
      await appTurn(server.baseURL, warmId, token, warm, lookup);
      await floorTurn(floor.baseURL, lookup);
    }
    warm.close();
    const out: BurstRound[] = [];
    for (let r = 0; r < rounds; r++) {
      const ids = await Promise.all(
        Array.from({ length: CONCURRENT_STREAMS }, () => createConversation(server.baseURL, token)),
      );
      const streams = await Promise.all(ids.map((cid) => openAppStream(server.baseURL, cid, token)));
      await model.script(replies(CONCURRENT_STREAMS));
      let quiet = await waitForQuietMachine();
      collectBenchGarbage();
      let before = await cpuNow(server.pid, backends);
      const apps = await Promise.all(
        ids.map((cid, i) => appTurn(server.baseURL, cid, token, streams[i], lookup)),
      );
      const app = { apps, quiet, cpuPerTurnMs: (await cpuSince(before, backends)) / CONCURRENT_STREAMS };
      for (const s of streams) s.close();
      await model.script(replies(CONCURRENT_STREAMS));
      quiet = await waitForQuietMachine();
      collectBenchGarbage();
      before = await cpuNow(floor.pid, null);
      const floorTurns = await Promise.all(
        Array.from({ length: CONCURRENT_STREAMS }, () => floorTurn(floor.baseURL, lookup)),
      );
      const floored = {
        apps: floorTurns,
        quiet,
        cpuPerTurnMs: (await cpuSince(before, null)) / CONCURRENT_STREAMS,
      };
      out.push({ app, floor: floored });
    }
    return out;
  } finally {
    await backends?.close();
    await floor.stop();
    await server.stop();
    await model.close();
  }
}

const round2 = (ms: number) => Math.round(ms * 100) / 100;
const p50Of = (turns: RawTiming[], of: 'first' | 'chunks') =>
  pct(
    turns.flatMap((t) => (of === 'first' ? [t.first] : t.chunks)),
    50,
  );

/** Sequential turns direct, through the model layer, the app and the floor in turn, against the floor. */
async function sequentialTurns(ceo: string, notes: string[], budgets: BudgetCheck[]): Promise<number> {
  const mock = await startMockOpenAI({ models: ['gpt-5-chat'] });
  // Model keys of this machine are dropped: the app must talk to the mock.
  const server = await startOwnServer({
    name: 'chat',
    env: { OPENAI_BASE_URL: mock.url },
    withoutEnv: ['OPENAI_API_KEY', 'GOOGLE_GENERATIVE_AI_API_KEY'],
  });
  let floor: FloorServer | null = null;
  try {
    floor = await startFloor('chat-floor', { env: { MODEL_URL: mock.url } });
    const appToken = await signIn(server.baseURL, ceo);
    const newConversation = () => createConversation(server.baseURL, appToken);
    const lookup = inProcess(mock);

    // Warm up every path.
    const warmId = await newConversation();
    const warm = await openAppStream(server.baseURL, warmId, appToken);
    for (let i = 0; i < 3; i++) {
      script(mock, 4);
      await directTurn(mock);
      await modelLayerTurn(mock);
      await appTurn(server.baseURL, warmId, appToken, warm, lookup);
      await floorTurn(floor.baseURL, lookup);
    }
    warm.close();

    // The four paths interleaved, so the machine's moods hit them alike.
    const direct: RawTiming[] = [];
    const sdk: RawTiming[] = [];
    const app: RawTiming[] = [];
    const floored: RawTiming[] = [];
    const id = await newConversation();
    const stream = await openAppStream(server.baseURL, id, appToken);
    for (let i = 0; i < SEQUENTIAL_TURNS; i++) {
      script(mock, 4);
      direct.push(await directTurn(mock));
      sdk.push(await modelLayerTurn(mock));
      app.push(await appTurn(server.baseURL, id, appToken, stream, lookup));
      floored.push(await floorTurn(floor.baseURL, lookup));
    }
    stream.close();
    const directFirst = p50Of(direct, 'first');
    const directChunk = p50Of(direct, 'chunks');
    const appAdded = round2(p50Of(app, 'first') - directFirst);
    const floorAdded = round2(p50Of(floored, 'first') - directFirst);
    const appChunk = round2(p50Of(app, 'chunks') - directChunk);
    const floorChunk = round2(p50Of(floored, 'chunks') - directChunk);
    notes.push(
      `direct from the mock (raw HTTP, no server): first token p50 ${directFirst} ms, chunk latency p50 ${directChunk} ms`,
      `first token added (sequential): app p50 ${appAdded} ms, chat floor ${floorAdded} ms, the model layer alone ` +
        `${round2(p50Of(sdk, 'first') - directFirst)} ms; app POST → model request p50 ${round2(
          pct(
            app.map((t) => t.toModel ?? 0),
            50,
          ),
        )} ms`,
      `per-chunk added latency (sequential): app p50 ${appChunk} ms, chat floor ${floorChunk} ms` +
        (appChunk > 2 * Math.max(floorChunk, 0.01) ? ' (ALARM: over twice the floor)' : ''),
    );
    budgets.push(
      latencyRatioBudget(
        'chat',
        'chat sequential: added to the model first token',
        'chat floor',
        'added p50',
        appAdded,
        floorAdded,
        SEQUENTIAL_ADDED_MAX,
      ),
    );
    return directChunk;
  } finally {
    await floor?.stop();
    await server.stop();
    await mock.close();
  }
}

/** 50 turns at once, app and floor in turn for `rounds` rounds: first token p50 and CPU per turn. */
async function burstRounds(
  ceo: string,
  rounds: number,
  directChunk: number,
  notes: string[],
  budgets: BudgetCheck[],
) {
  const results = await burstsOfTurns(ceo, rounds);
  const firstP50 = (b: Burst) =>
    pct(
      b.apps.map((a) => a.first),
      50,
    );
  const chunkP99 = (b: Burst) =>
    pct(
      b.apps.flatMap((a) => a.chunks.map((ms) => ms - directChunk)),
      99,
    );
  const firstRatio = round2(median(results.map((r) => firstP50(r.app) / firstP50(r.floor))));
  const cpuRatio = round2(median(results.map((r) => r.app.cpuPerTurnMs / r.floor.cpuPerTurnMs)));
  const each = (f: (b: Burst) => number) =>
    results.map((r) => `${round2(f(r.app))}/${round2(f(r.floor))}`).join(', ');
  notes.push(
    `${CONCURRENT_STREAMS} turns at once, ${results.length} rounds (app/floor): first token p50 ${each(firstP50)} ms; ` +
      `CPU per turn ${each((b) => b.cpuPerTurnMs)} ms; per-chunk added p99 ${each(chunkP99)} ms; ` +
      `app POST → model request p50 ${each((b) =>
        pct(
          b.apps.map((a) => a.toModel ?? Number.NaN),
          50,
        ),
      )} ms; ${quietNote(results[0].app.quiet)}`,
  );
  const row = (name: string, budget: string, ratio: number, max: number, figure: string): BudgetCheck => ({
    group: 'chat',
    name,
    budget,
    figure: `${ratio.toFixed(2)}× (${figure})`,
    pass: Number.isFinite(ratio) && ratio <= max,
  });
  budgets.push(
    row(
      `chat: ${CONCURRENT_STREAMS} turns at once, first token`,
      `p50 ≤ ${BURST_FIRST_TOKEN_MAX}× the chat floor's`,
      firstRatio,
      BURST_FIRST_TOKEN_MAX,
      `median of ${results.length} rounds' ratios; p50 app/floor ${each(firstP50)} ms`,
    ),
    row(
      `chat: ${CONCURRENT_STREAMS} turns at once, CPU per turn`,
      `≤ ${BURST_CPU_MAX}× the chat floor's`,
      cpuRatio,
      BURST_CPU_MAX,
      `median of ${results.length} rounds' ratios; app/floor ${each((b) => b.cpuPerTurnMs)} ms`,
    ),
  );
}

export const chat: ScenarioGroup = {
  name: 'chat',
  description:
    'chat: latest page of a 5,000-message conversation; first token and CPU per turn against the chat floor',
  async run(ctx) {
    const notes: string[] = [];
    const budgets: BudgetCheck[] = [];
    // 1. The long conversation, on the shared server.
    const ceo = 'ceo@demo.example';
    const longId = await seedLongConversation(ctx.databaseUrl, ceo);
    const token = await ctx.token(ceo);
    const headers = { authorization: `Bearer ${token}` };
    const pageRes = await fetch(`${ctx.baseURL}/api/conversations/${longId}/messages`, { headers });
    const pageBytes = (await pageRes.arrayBuffer()).byteLength;
    const pageResult = await measure(
      ctx.baseURL,
      'chat',
      {
        name: 'latest 50 of 5,000 messages',
        method: 'GET',
        path: `/api/conversations/${longId}/messages`,
        headers,
      },
      ctx.settings,
      ctx.control,
    );
    const listResult = await measure(
      ctx.baseURL,
      'chat',
      { name: 'conversation list', method: 'GET', path: '/api/conversations/?limit=50', headers },
      ctx.settings,
      ctx.control,
    );
    notes.push(`long conversation: latest page ${pageBytes} bytes, p99 ${pageResult.p99_ms} ms under load`);
    budgets.push({
      group: 'chat',
      name: 'long conversation: the latest 50 of 5,000 messages',
      budget: `≤ ${PAGE_BYTES_BUDGET} bytes`,
      figure: `${pageBytes} bytes`,
      pass: pageRes.status === 200 && pageBytes <= PAGE_BYTES_BUDGET,
    });

    // 2. Streaming over the mock model, against the chat floor.
    const directChunk = await sequentialTurns(ceo, notes, budgets);
    await burstRounds(ceo, ctx.settings.rounds, directChunk, notes, budgets);
    for (const n of notes) console.log(`  ${n}`);
    return { http: [pageResult, listResult], notes, budgets };
  },
};
