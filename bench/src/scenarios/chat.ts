import { randomUUID } from 'node:crypto';
import http from 'node:http';
import Database from 'better-sqlite3';
import { type MockOpenAI, startMockOpenAI } from '../../../server/test/mock-openai.ts';
import { measure } from '../http.ts';
import { pct as rankPct, readEvents, signIn, startOwnServer } from '../own-server.ts';
import type { ScenarioGroup } from './types.ts';

/**
 * Chat (issue 4, ARCHITECTURE.md section 8):
 * 1. Long conversation: the latest page (50) of a 5,000-message conversation, among 10k conversations,
 *    under load on the shared bench server — p99 ≤ 20 ms, ≤ 64 KB.
 * 2. Streaming overhead: a server of its own pointed at the mock OpenAI-compatible model
 *    (OPENAI_BASE_URL), which runs in this process and notes when it received each model request and
 *    when it wrote each chunk. Each turn (POST /chat) carries a unique marker, so its model request is
 *    found; the deltas arrive on the conversation's SSE stream. The app adds to the first token: the
 *    time from POST to the first delta minus the model's own time to its first chunk (sequential, p50
 *    ≤ 5 ms); to each chunk: its SSE arrival minus the moment the model wrote it (p50 ≤ 1 ms; p99 ≤ 30
 *    ms at 50 concurrent streams).
 */

const LONG_MESSAGES = 5000;
const CONVERSATIONS = 10_000;
const PAGE_P99_BUDGET_MS = 20;
const PAGE_BYTES_BUDGET = 64 * 1024;
const TTFT_BUDGET_MS = 5;
const CHUNK_BUDGET_MS = 1;
const CONCURRENT_P99_BUDGET_MS = 30;
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

/** A 5,000-message conversation for the ceo plus 10k small ones, written straight into the WAL database. */
function seedLongConversation(dbFile: string, ownerEmail: string) {
  const db = new Database(dbFile);
  db.pragma('busy_timeout = 10000');
  const owner = db.prepare('select id from users where email = ?').get(ownerEmail) as { id: string };
  const users = (db.prepare('select id from users').all() as { id: string }[]).map((u) => u.id);
  const now = Date.now();
  const iso = (ms: number) => new Date(ms).toISOString();
  const longId = randomUUID();
  let seq = (
    db.prepare('select coalesce(max(seq), 0) as s from conversation_messages').get() as { s: number }
  ).s;
  const insConv = db.prepare(
    'insert into conversations (id, user_id, name, created_at, updated_at) values (?, ?, ?, ?, ?)',
  );
  const insMsg = db.prepare(
    `insert into conversation_messages (id, conversation_id, seq, sender, text, status, model, input_tokens,
       output_tokens, error, crew_run_id, flow_run_id, created_at, updated_at)
     values (?, ?, ?, ?, ?, 'complete', ?, ?, ?, null, null, null, ?, ?)`,
  );
  db.transaction(() => {
    for (let i = 0; i < CONVERSATIONS; i++) {
      const t = iso(now - (CONVERSATIONS - i) * 60_000);
      insConv.run(randomUUID(), users[i % users.length], `Conversation ${i}`, t, t);
    }
    insConv.run(longId, owner.id, 'Five thousand messages', iso(now - 86_400_000), iso(now));
    for (let i = 0; i < LONG_MESSAGES; i++) {
      const user = i % 2 === 0;
      const n = user ? 1 + (i % 2) : 4 + (i % 6);
      const text = Array.from({ length: n }, (_, k) => SENTENCES[(i + k) % SENTENCES.length]).join(' ');
      const t = iso(now - (LONG_MESSAGES - i) * 30_000);
      seq += 1;
      insMsg.run(
        randomUUID(),
        longId,
        seq,
        user ? 'user' : 'assistant',
        user ? text : `**Answer ${i}.** ${text}\n\n- ${SENTENCES[i % 6]}\n- ${SENTENCES[(i + 1) % 6]}`,
        user ? null : 'gpt-5-chat',
        user ? null : 300 + (i % 50),
        user ? null : 60 + (i % 40),
        t,
        t,
      );
    }
  })();
  db.exec('ANALYZE');
  db.close();
  return longId;
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

interface TurnTiming {
  /** The app's added time to the first token: POST → first delta, minus the model's request → first chunk. */
  firstAdded: number;
  /** For each chunk: its SSE arrival minus the moment the model wrote it. */
  chunkAdded: number[];
}

/** One turn through the app; its model request is found by a unique marker in the message. */
async function appTurn(
  baseURL: string,
  conversationId: string,
  token: string,
  stream: AppStream,
  mock: MockOpenAI,
): Promise<TurnTiming> {
  stream.mark();
  const marker = `bench-turn-${randomUUID()}`;
  const sent = performance.now();
  const res = await fetch(`${baseURL}/api/conversations/${conversationId}/chat`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ message_text: `Hi ${marker}`, model: 'gpt-5-chat', context_messages: 0 }),
  });
  await res.arrayBuffer();
  await stream.waitFor(CHUNKS);
  const upstream = mock.chatRequests().find((r) => JSON.stringify(r.body).includes(marker));
  if (!upstream || upstream.contentSentAt.length < CHUNKS)
    throw new Error('the model request of a turn was not found');
  const deltas = [...stream.deltas];
  return {
    firstAdded: deltas[0] - sent - (upstream.contentSentAt[0] - upstream.receivedAt),
    chunkAdded: upstream.contentSentAt.slice(0, deltas.length).map((at, i) => deltas[i] - at),
  };
}

const script = (mock: MockOpenAI, n: number) =>
  mock.script(
    ...Array.from({ length: n }, () => ({
      kind: 'text' as const,
      chunks: Array.from({ length: CHUNKS }, (_, i) => `tok${i} `),
      delayMs: CHUNK_DELAY_MS,
    })),
  );

export const chat: ScenarioGroup = {
  name: 'chat',
  description:
    'chat: latest page of a 5,000-message conversation; time to first token and per-chunk overhead over the mock model',
  async run(ctx) {
    const notes: string[] = [];
    // 1. The long conversation, on the shared server.
    const ceo = 'ceo@demo.example';
    const longId = seedLongConversation(ctx.dbFile, ceo);
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
      const newConversation = async () => {
        const res = await fetch(`${server.baseURL}/api/conversations/`, {
          method: 'POST',
          headers: { authorization: `Bearer ${appToken}`, 'content-type': 'application/json' },
          body: '{}',
        });
        return ((await res.json()) as { id: string }).id;
      };

      // Warm up both paths.
      script(mock, 3);
      const warmId = await newConversation();
      const warm = await openAppStream(server.baseURL, warmId, appToken);
      for (let i = 0; i < 3; i++) await appTurn(server.baseURL, warmId, appToken, warm, mock);
      warm.close();

      // Sequential turns.
      const firstAdded: number[] = [];
      const perChunk: number[] = [];
      const id = await newConversation();
      const stream = await openAppStream(server.baseURL, id, appToken);
      for (let i = 0; i < SEQUENTIAL_TURNS; i++) {
        script(mock, 1);
        const turn = await appTurn(server.baseURL, id, appToken, stream, mock);
        firstAdded.push(turn.firstAdded);
        perChunk.push(...turn.chunkAdded);
      }
      stream.close();
      const ttftAdded = pct(firstAdded, 50);
      const chunkP50 = pct(perChunk, 50);
      notes.push(
        `first token added by the app (sequential): p50 ${ttftAdded} ms (budget ${TTFT_BUDGET_MS}): ${ttftAdded <= TTFT_BUDGET_MS ? 'PASS' : 'FAIL'}, p99 ${pct(firstAdded, 99)} ms`,
        `per-chunk added latency (sequential): p50 ${chunkP50} ms (budget ${CHUNK_BUDGET_MS}): ${chunkP50 <= CHUNK_BUDGET_MS ? 'PASS' : 'FAIL'}, p99 ${pct(perChunk, 99)} ms`,
      );

      // 50 concurrent streams.
      const ids = await Promise.all(Array.from({ length: CONCURRENT_STREAMS }, () => newConversation()));
      const streams = await Promise.all(ids.map((cid) => openAppStream(server.baseURL, cid, appToken)));
      script(mock, CONCURRENT_STREAMS);
      const apps = await Promise.all(
        ids.map((cid, i) => appTurn(server.baseURL, cid, appToken, streams[i], mock)),
      );
      for (const s of streams) s.close();
      const concurrent = apps.flatMap((a) => a.chunkAdded);
      const cP99 = pct(concurrent, 99);
      notes.push(
        `per-chunk added latency at ${CONCURRENT_STREAMS} concurrent streams: p50 ${pct(concurrent, 50)} ms, p99 ${cP99} ms (budget ${CONCURRENT_P99_BUDGET_MS}): ${cP99 <= CONCURRENT_P99_BUDGET_MS ? 'PASS' : 'FAIL'}; first token added p50 ${pct(
          apps.map((a) => a.firstAdded),
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
