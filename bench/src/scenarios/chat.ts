import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { providerFetch } from '../../../server/src/ai/net/provider-fetch.ts';
import { runToolLoop } from '../../../server/src/ai/tool-loop.ts';
import { type MockOpenAI, startMockOpenAI } from '../../../server/test/mock-openai.ts';
import { measure } from '../http.ts';
import { startMockModelProcess, type UpstreamTimes } from '../mock-model-process.ts';
import { openSeedDb } from '../seed-db.ts';
import { pct as rankPct, readEvents, signIn, startOwnServer } from '../own-server.ts';
import type { ScenarioGroup } from './types.ts';
import { eachRepeat, medianRepeat } from '../repeats.ts';
import { collectBenchGarbage, type QuietWait, quietNote, waitForQuietMachine } from '../quiet-client.ts';

/**
 * Chat (issue 4, ARCHITECTURE.md section 8):
 * 1. Long conversation: the latest page (50) of a 5,000-message conversation, among 10k conversations,
 *    under load on the shared bench server — p99 ≤ 20 ms, ≤ 64 KB.
 * 2. Streaming overhead: a server of its own pointed at the mock OpenAI-compatible model
 *    (OPENAI_BASE_URL), which runs in this process and notes when it received each model request and
 *    when it wrote each chunk. Each turn (POST /chat) carries a unique marker, so its model request is
 *    found; the deltas arrive on the conversation's SSE stream. What the app adds is measured against
 *    the same turn read straight from the mock by this process over raw HTTP (what a client sees with
 *    no server in between): to the first token, p50(POST → first delta) minus p50(request → first
 *    chunk) (sequential, ≤ 5 ms); to each chunk, p50 of (SSE arrival − the moment the model wrote it)
 *    minus the same for the direct read (≤ 1 ms); at 50 concurrent streams, p99 of that (≤ 30 ms).
 *    The model layer's own share (the app's model and tool loop in this process against the same mock,
 *    no server) is printed beside it, so a reader sees which part of the figure is the model call's.
 */
const LONG_MESSAGES = 5000;
const CONVERSATIONS = 10_000;
const PAGE_P99_BUDGET_MS = 20;
const PAGE_BYTES_BUDGET = 64 * 1024;
const TTFT_BUDGET_MS = 5;
const CHUNK_BUDGET_MS = 1;
const CONCURRENT_P99_BUDGET_MS = 30;
/** Issue 18: 50 turns at once, the first token reaches each client p50 ≤ 50 ms after its POST. */
const BURST_FIRST_TOKEN_BUDGET_MS = 50;
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

/** n keep-alive connections to the server left open in the agent's pool, for the next n requests. */
async function openConnections(baseURL: string, n: number): Promise<void> {
  await Promise.all(
    Array.from(
      { length: n },
      () =>
        new Promise<void>((resolve, reject) => {
          http
            .get(`${baseURL}/healthz`, { agent: keepAlive }, (res) => {
              res.resume();
              res.on('end', resolve);
            })
            .on('error', reject);
        }),
    ),
  );
}

/**
 * CONCURRENT_STREAMS turns sent at once, each in a conversation of its own followed by its stream.
 * The model here is a process of its own (a model is another machine in production): with the mock
 * in this process, its receipt of each request waited on this process's own work for the fifty
 * clients, which is no part of what a user sees. A server of its own, warmed by a few turns first.
 */
export async function burstOfTurns(email: string): Promise<Burst> {
  return (await burstsOfTurns(email, 1))[0] as Burst;
}

/** One burst: each turn's timings, and how long the machine took to be quiet before it. */
export interface Burst {
  apps: RawTiming[];
  quiet: QuietWait;
}

/** `repeats` bursts on the same server, each in fresh conversations followed by fresh streams. */
export async function burstsOfTurns(email: string, repeats: number): Promise<Burst[]> {
  const model = await startMockModelProcess();
  const server = await startOwnServer({
    name: 'chat-burst',
    env: { OPENAI_BASE_URL: model.url },
    withoutEnv: ['OPENAI_API_KEY', 'GOOGLE_GENERATIVE_AI_API_KEY'],
  });
  const lookup = async (marker: string) => streamedAll(await model.find(marker));
  try {
    const token = await signIn(server.baseURL, email);
    const warmId = await createConversation(server.baseURL, token);
    const warm = await openAppStream(server.baseURL, warmId, token);
    for (let i = 0; i < 5; i++) {
      await model.script(replies(1));
      await appTurn(server.baseURL, warmId, token, warm, lookup);
    }
    warm.close();
    const bursts: Burst[] = [];
    for (let r = 0; r < repeats; r++) {
      const ids = await Promise.all(
        Array.from({ length: CONCURRENT_STREAMS }, () => createConversation(server.baseURL, token)),
      );
      const streams = await Promise.all(ids.map((cid) => openAppStream(server.baseURL, cid, token)));
      await model.script(replies(CONCURRENT_STREAMS));
      const quiet = await waitForQuietMachine();
      // BURST_WARM=1 (probe switch; the bench measures fresh connections): no accept in the figure.
      if (process.env.BURST_WARM === '1') await openConnections(server.baseURL, CONCURRENT_STREAMS);
      collectBenchGarbage();
      const apps = await Promise.all(
        ids.map((cid, i) => appTurn(server.baseURL, cid, token, streams[i], lookup)),
      );
      for (const s of streams) s.close();
      bursts.push({ apps, quiet });
    }
    return bursts;
  } finally {
    await server.stop();
    await model.close();
  }
}

export const chat: ScenarioGroup = {
  name: 'chat',
  description:
    'chat: latest page of a 5,000-message conversation; time to first token and per-chunk overhead over the mock model',
  async run(ctx) {
    const notes: string[] = [];
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
    notes.push(
      `long conversation: latest page ${pageBytes} bytes (budget ${PAGE_BYTES_BUDGET}): ${pageBytes <= PAGE_BYTES_BUDGET ? 'PASS' : 'FAIL'}; ` +
        `p99 ${pageResult.p99_ms} ms (budget ${PAGE_P99_BUDGET_MS}): ${pageResult.p99_ms <= PAGE_P99_BUDGET_MS ? 'PASS' : 'FAIL'}`,
    );

    // 2. Streaming over the mock model.
    const mock = await startMockOpenAI({ models: ['gpt-5-chat'] });
    // Model keys of this machine are dropped: the app must talk to the mock.
    const server = await startOwnServer({
      name: 'chat',
      env: { OPENAI_BASE_URL: mock.url },
      withoutEnv: ['OPENAI_API_KEY', 'GOOGLE_GENERATIVE_AI_API_KEY'],
    });
    try {
      const appToken = await signIn(server.baseURL, ceo);
      const newConversation = () => createConversation(server.baseURL, appToken);

      // Warm up every path.
      const warmId = await newConversation();
      const warm = await openAppStream(server.baseURL, warmId, appToken);
      for (let i = 0; i < 3; i++) {
        script(mock, 3);
        await directTurn(mock);
        await modelLayerTurn(mock);
        await appTurn(server.baseURL, warmId, appToken, warm, inProcess(mock));
      }
      warm.close();

      // Sequential turns, the three paths interleaved so the machine's moods hit them alike.
      const direct: RawTiming[] = [];
      const sdk: RawTiming[] = [];
      const app: RawTiming[] = [];
      const id = await newConversation();
      const stream = await openAppStream(server.baseURL, id, appToken);
      for (let i = 0; i < SEQUENTIAL_TURNS; i++) {
        script(mock, 3);
        direct.push(await directTurn(mock));
        sdk.push(await modelLayerTurn(mock));
        app.push(await appTurn(server.baseURL, id, appToken, stream, inProcess(mock)));
      }
      stream.close();
      const p50 = (turns: RawTiming[], of: 'first' | 'chunks') =>
        pct(
          turns.flatMap((t) => (of === 'first' ? [t.first] : t.chunks)),
          50,
        );
      const round = (ms: number) => Math.round(ms * 100) / 100;
      const directFirst = p50(direct, 'first');
      const directChunk = p50(direct, 'chunks');
      const ttftAdded = round(p50(app, 'first') - directFirst);
      const chunkAdded = round(p50(app, 'chunks') - directChunk);
      notes.push(
        `direct from the mock (raw HTTP, no app): first token p50 ${directFirst} ms, chunk latency p50 ${directChunk} ms`,
        `first token added by the app (sequential): p50 ${ttftAdded} ms (budget ${TTFT_BUDGET_MS}): ${ttftAdded <= TTFT_BUDGET_MS ? 'PASS' : 'FAIL'}; ` +
          `of it the model layer alone (no server): ${round(p50(sdk, 'first') - directFirst)} ms; ` +
          `POST → model request p50 ${round(
            pct(
              app.map((t) => t.toModel ?? 0),
              50,
            ),
          )} ms, ` +
          `model's first chunk → client p50 ${round(
            pct(
              app.map((t) => t.firstChunkOut ?? 0),
              50,
            ),
          )} ms`,
        `per-chunk added latency (sequential): p50 ${chunkAdded} ms (budget ${CHUNK_BUDGET_MS}): ${chunkAdded <= CHUNK_BUDGET_MS ? 'PASS' : 'FAIL'}; ` +
          `of it the model layer alone: ${round(p50(sdk, 'chunks') - directChunk)} ms; app p99 ${pct(
            app.flatMap((t) => t.chunks),
            99,
          )} ms`,
      );

      // Repeated on the same server; each budget is checked against its median burst.
      const bursts = (await burstsOfTurns(ceo, ctx.settings.latencyRepeats)).map((b) => {
        const concurrent = b.apps.flatMap((a) => a.chunks.map((ms) => ms - directChunk));
        return {
          ...b,
          concurrent,
          chunkP99: pct(concurrent, 99),
          first: pct(
            b.apps.map((a) => a.first),
            50,
          ),
        };
      });
      const byChunk = medianRepeat(bursts, (b) => b.chunkP99);
      const byFirst = medianRepeat(bursts, (b) => b.first);
      const cP99 = byChunk.chunkP99;
      const burstFirst = byFirst.first;
      notes.push(
        `per-chunk added latency at ${CONCURRENT_STREAMS} concurrent streams, median of ${bursts.length} bursts: p50 ${pct(byChunk.concurrent, 50)} ms, p99 ${cP99} ms (budget ${CONCURRENT_P99_BUDGET_MS}): ${cP99 <= CONCURRENT_P99_BUDGET_MS ? 'PASS' : 'FAIL'}; ` +
          `each burst's per-chunk p99: ${eachRepeat(bursts.map((b) => b.chunkP99))}`,
        `first token of ${CONCURRENT_STREAMS} turns sent at once, median of ${bursts.length} bursts: p50 ${burstFirst} ms after the POST (budget ${BURST_FIRST_TOKEN_BUDGET_MS}): ${burstFirst <= BURST_FIRST_TOKEN_BUDGET_MS ? 'PASS' : 'FAIL'}; ` +
          `each burst's first-token p50: ${eachRepeat(bursts.map((b) => b.first))}; ` +
          `${quietNote(byFirst.quiet)}; of that burst POST → model request p50 ${pct(
            byFirst.apps.map((a) => a.toModel ?? Number.NaN),
            50,
          )} ms, ` +
          `model's first chunk → client p50 ${pct(
            byFirst.apps.map((a) => a.firstChunkOut ?? Number.NaN),
            50,
          )} ms`,
      );
    } finally {
      await server.stop();
      await mock.close();
    }
    for (const n of notes) console.log(`  ${n}`);
    return { http: [pageResult, listResult], notes };
  },
};
