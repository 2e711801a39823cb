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
 *    (OPENAI_BASE_URL). The same scripted stream is read directly from the mock and through the app
 *    (POST /chat, deltas on the conversation's SSE stream): the time the app adds to the first token
 *    (sequential, p50 ≤ 5 ms) and to each later chunk (p50 ≤ 1 ms; p99 ≤ 30 ms at 50 concurrent streams).
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

/** Chunk arrival times (ms after the request was sent) reading the mock directly. */
function directTurn(mockUrl: string): Promise<number[]> {
  return new Promise((resolve, reject) => {
    const times: number[] = [];
    const body = JSON.stringify({
      model: 'gpt-5-chat',
      stream: true,
      messages: [{ role: 'user', content: 'Hi' }],
    });
    const started = performance.now();
    const req = http.request(
      `${mockUrl}/chat/completions`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        readEvents(res, (data, at) => {
          if (data === '[DONE]') return;
          const d = JSON.parse(data) as { choices?: { delta?: { content?: string } }[] };
          if (d.choices?.[0]?.delta?.content) times.push(at - started);
        });
        res.on('end', () => resolve(times));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

interface AppStream {
  /** Delta arrival times since `mark()`. */
  deltas: number[];
  mark: () => void;
  waitFor: (n: number, timeoutMs?: number) => Promise<void>;
  close: () => void;
}

function openAppStream(baseURL: string, conversationId: string, token: string): Promise<AppStream> {
  return new Promise((resolve, reject) => {
    let start = performance.now();
    const deltas: number[] = [];
    const waiters: { n: number; done: () => void }[] = [];
    const req = http.get(`${baseURL}/api/conversations/${conversationId}/events?token=${token}`, (res) => {
      readEvents(res, (_data, at, event) => {
        if (event !== 'delta') return;
        deltas.push(at - start);
        for (const w of [...waiters]) if (deltas.length >= w.n) w.done();
      });
      resolve({
        deltas,
        mark: () => {
          start = performance.now();
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

async function appTurn(baseURL: string, conversationId: string, token: string, stream: AppStream) {
  stream.mark();
  const res = await fetch(`${baseURL}/api/conversations/${conversationId}/chat`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ message_text: 'Hi', model: 'gpt-5-chat', context_messages: 0 }),
  });
  await res.arrayBuffer();
  await stream.waitFor(CHUNKS);
  return [...stream.deltas];
}

const script = (mock: MockOpenAI, n: number) =>
  mock.script(
    ...Array.from({ length: n }, () => ({
      kind: 'text' as const,
      chunks: Array.from({ length: CHUNKS }, (_, i) => `tok${i} `),
      delayMs: CHUNK_DELAY_MS,
    })),
  );

/** Per-chunk added latency: how much later than the first chunk each chunk arrives, beyond the model's own spacing. */
function chunkOverheads(app: number[], direct: number[]): number[] {
  const out: number[] = [];
  for (let i = 1; i < Math.min(app.length, direct.length); i++) {
    out.push(app[i] - app[0] - (direct[i] - direct[0]));
  }
  return out;
}

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
      for (let i = 0; i < 3; i++) await appTurn(server.baseURL, warmId, appToken, warm);
      warm.close();
      for (let i = 0; i < 3; i++) await directTurn(mock.url);

      // Sequential: direct and through the app, alternating.
      const directFirst: number[] = [];
      const appFirst: number[] = [];
      const perChunk: number[] = [];
      const id = await newConversation();
      const stream = await openAppStream(server.baseURL, id, appToken);
      for (let i = 0; i < SEQUENTIAL_TURNS; i++) {
        script(mock, 1);
        const direct = await directTurn(mock.url);
        script(mock, 1);
        const app = await appTurn(server.baseURL, id, appToken, stream);
        directFirst.push(direct[0]);
        appFirst.push(app[0]);
        perChunk.push(...chunkOverheads(app, direct));
      }
      stream.close();
      const ttftAdded = Math.round((pct(appFirst, 50) - pct(directFirst, 50)) * 100) / 100;
      const chunkP50 = pct(perChunk, 50);
      notes.push(
        `first token (sequential, p50): direct ${pct(directFirst, 50)} ms, through the app ${pct(appFirst, 50)} ms, added ${ttftAdded} ms (budget ${TTFT_BUDGET_MS}): ${ttftAdded <= TTFT_BUDGET_MS ? 'PASS' : 'FAIL'}`,
        `per-chunk added latency (sequential): p50 ${chunkP50} ms (budget ${CHUNK_BUDGET_MS}): ${chunkP50 <= CHUNK_BUDGET_MS ? 'PASS' : 'FAIL'}, p99 ${pct(perChunk, 99)} ms`,
      );

      // 50 concurrent streams.
      const ids = await Promise.all(Array.from({ length: CONCURRENT_STREAMS }, () => newConversation()));
      const streams = await Promise.all(ids.map((cid) => openAppStream(server.baseURL, cid, appToken)));
      script(mock, CONCURRENT_STREAMS);
      const direct = await directTurn(mock.url);
      script(mock, CONCURRENT_STREAMS);
      const apps = await Promise.all(ids.map((cid, i) => appTurn(server.baseURL, cid, appToken, streams[i])));
      for (const s of streams) s.close();
      const concurrent = apps.flatMap((a) => chunkOverheads(a, direct));
      const cP99 = pct(concurrent, 99);
      notes.push(
        `per-chunk added latency at ${CONCURRENT_STREAMS} concurrent streams: p50 ${pct(concurrent, 50)} ms, p99 ${cP99} ms (budget ${CONCURRENT_P99_BUDGET_MS}): ${cP99 <= CONCURRENT_P99_BUDGET_MS ? 'PASS' : 'FAIL'}; first token p50 ${pct(
          apps.map((a) => a[0]),
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
