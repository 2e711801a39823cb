import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiSuite, createTestApp, PASSWORD, type TestApp, type TestUser } from '../../../test/helpers.ts';
import { connectSse, type SseClient } from '../../../test/sse.ts';
import { loadConfig } from '../../config.ts';

/**
 * Issue 16 §3: every costly or guessable call is limited per user, with 429, a `detail` that says when
 * to retry, `Retry-After` and `x-ratelimit-*`. Limits are configured low; the limiters' clock is
 * advanced to see a window reset without waiting for it.
 */
const QUOTA_BYTES = 10 * 1024;

describe('limit defaults', () => {
  it("are the issue's: 30 chat turns and 10 run starts a minute, 10 wrong current passwords", () => {
    const { limits } = loadConfig({ JWT_SECRET: 'x'.repeat(40) });
    expect(limits).toEqual({
      chatTurnsPerMinute: 30,
      runStartsPerMinute: 10,
      uploadsPerMinute: 60,
      storageQuotaBytes: 1024 * 1024 * 1024,
      streamTicketsPerMinute: 60,
      concurrentStreams: 20,
      mcpCallsPerKeyPerMinute: 60,
      mcpCallsPerUserPerMinute: 120,
      currentPasswordMaxFailures: 10,
    });
  });
});

apiSuite('per-user limits', () => {
  let t: TestApp;
  let base: string;

  beforeAll(async () => {
    t = await createTestApp({
      LIMIT_CHAT_TURNS_PER_MINUTE: '2',
      LIMIT_RUN_STARTS_PER_MINUTE: '2',
      LIMIT_UPLOADS_PER_MINUTE: '2',
      STORAGE_QUOTA_MB: String(QUOTA_BYTES / (1024 * 1024)),
      LIMIT_STREAM_TICKETS_PER_MINUTE: '2',
      LIMIT_CONCURRENT_STREAMS: '2',
      CURRENT_PASSWORD_MAX_FAILURES: '3',
      LOGIN_MAX_FAILURES: '3',
      // Runs stay pending (no worker): a run start costs nothing here but its count.
      RUN_WORKER_CONCURRENCY: '0',
      AI_OFFLINE_TOKEN_DELAY_MS: '0',
    });
    base = await t.listen();
  });
  afterAll(async () => {
    t.app.server.closeAllConnections();
    await t.close();
  });

  const advanceMinutes = (m: number) => t.ctx.limits.clock.advance(m * 60_000);

  /** A 429 of a limiter: detail with when to retry, Retry-After and the x-ratelimit headers. */
  const expectLimited = (res: LightMyRequestResponse, limit: number, detail: RegExp) => {
    expect(res.statusCode, res.body).toBe(429);
    expect(res.json().detail).toMatch(detail);
    expect(res.json().detail).toMatch(/Please try again in \d+ (seconds?|minutes?)\./);
    const retry = Number(res.headers['retry-after']);
    expect(retry).toBeGreaterThan(0);
    expect(res.headers['x-ratelimit-limit']).toBe(String(limit));
    expect(res.headers['x-ratelimit-remaining']).toBe('0');
    expect(Number(res.headers['x-ratelimit-reset'])).toBe(retry);
  };
  const expectCounted = (res: LightMyRequestResponse, limit: number, remaining: number) => {
    expect(res.headers['x-ratelimit-limit']).toBe(String(limit));
    expect(res.headers['x-ratelimit-remaining']).toBe(String(remaining));
    expect(Number(res.headers['x-ratelimit-reset'])).toBeGreaterThan(0);
    expect(res.headers['retry-after']).toBeUndefined();
  };

  const conversation = async (u: TestUser) => {
    const res = await t.req({ method: 'POST', url: '/api/conversations/', token: u.token, body: {} });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().id as string;
  };

  it('chat turns: 429 past the limit, per user, and again allowed in the next window', async () => {
    const [a, b] = [await t.createUser('user'), await t.createUser('user')];
    const [ca, cb] = [await conversation(a), await conversation(b)];
    const chat = (u: TestUser, id: string) =>
      t.req({
        method: 'POST',
        url: `/api/conversations/${id}/chat`,
        token: u.token,
        body: { message_text: 'Hi' },
      });

    const first = await chat(a, ca);
    expect(first.statusCode, first.body).toBe(200);
    expectCounted(first, 2, 1);
    expectCounted(await chat(a, ca), 2, 0);
    const refused = await chat(a, ca);
    expectLimited(refused, 2, /You are sending messages too quickly \(at most 2 a minute\)/);
    // The refused turn stored nothing: two user messages, two replies.
    const stored = await t.ctx.db
      .selectFrom('conversation_messages')
      .select('id')
      .where('conversation_id', '=', ca)
      .execute();
    expect(stored).toHaveLength(4);

    expect((await chat(b, cb)).statusCode).toBe(200);
    advanceMinutes(1);
    expect((await chat(a, ca)).statusCode).toBe(200);
  });

  it('crew/flow run starts and Generate Advice share one per-user limit', async () => {
    const [a, b] = [await t.createUser('user'), await t.createUser('user')];
    const startFlow = (u: TestUser) =>
      t.req({ method: 'POST', url: '/api/flow-runs/', token: u.token, body: { flow_id: 'strategic_flow' } });
    const advice = (u: TestUser) =>
      t.req({ method: 'POST', url: '/api/flow/run/strategic_flow', token: u.token, body: {} });

    const first = await startFlow(a);
    expect(first.statusCode, first.body).toBe(201);
    expectCounted(first, 2, 1);
    expect((await advice(a)).statusCode).toBe(202);
    expectLimited(await startFlow(a), 2, /Too many runs started \(at most 2 a minute\)/);
    expectLimited(await advice(a), 2, /Too many runs started/);
    const crew = await t.req({
      method: 'POST',
      url: '/api/crew-runs/',
      token: a.token,
      body: { crew_id: randomUUID() },
    });
    expectLimited(crew, 2, /Too many runs started/);
    const runs = await t.ctx.db.selectFrom('runs').select('id').where('user_id', '=', a.id).execute();
    expect(runs).toHaveLength(2);

    expect((await startFlow(b)).statusCode).toBe(201);
    advanceMinutes(1);
    expect((await startFlow(a)).statusCode).toBe(201);
  });

  it('task suggestions and brief generation share the run-starts limit (issue 46 row 14)', async () => {
    const [a, b] = [await t.createUser('ceo'), await t.createUser('ceo')];
    const suggest = (u: TestUser) =>
      t.req({ method: 'POST', url: '/api/task-suggestions/generate', token: u.token });
    const brief = (u: TestUser) => t.req({ method: 'POST', url: '/api/briefs/generate', token: u.token });
    const startFlow = (u: TestUser) =>
      t.req({ method: 'POST', url: '/api/flow-runs/', token: u.token, body: { flow_id: 'strategic_flow' } });

    const first = await suggest(a);
    expect(first.statusCode, first.body).toBe(200);
    expectCounted(first, 2, 1);
    expect((await brief(a)).statusCode).toBe(201);
    const words =
      /Too many generations started \(at most 2 a minute, runs, suggestions and briefs together\)/;
    expectLimited(await brief(a), 2, words);
    expectLimited(await suggest(a), 2, words);
    expectLimited(await startFlow(a), 2, /Too many runs started/);
    // The refused brief was not built.
    const briefs = await t.ctx.db.selectFrom('briefs').select('id').where('user_id', '=', a.id).execute();
    expect(briefs).toHaveLength(1);

    expect((await brief(b)).statusCode).toBe(201);
    advanceMinutes(1);
    expect((await brief(a)).statusCode).toBe(201);
  });

  it('stream tickets: 429 past the limit per minute, per user, then allowed again', async () => {
    const [a, b] = [await t.createUser('user'), await t.createUser('user')];
    const ticket = (u: TestUser) => t.req({ method: 'POST', url: '/api/auth/stream-ticket', token: u.token });
    const first = await ticket(a);
    expect(first.statusCode).toBe(200);
    expectCounted(first, 2, 1);
    expect((await ticket(a)).statusCode).toBe(200);
    expectLimited(await ticket(a), 2, /Too many live connections requested \(at most 2 a minute\)/);
    expect((await ticket(b)).statusCode).toBe(200);
    advanceMinutes(1);
    expect((await ticket(a)).statusCode).toBe(200);
  });

  it('concurrent streams: one beyond the limit gets 429 before it opens; a closed one frees its slot', async () => {
    const [a, b] = [await t.createUser('user'), await t.createUser('user')];
    const [ca, cb] = [await conversation(a), await conversation(b)];
    const open = (u: TestUser, id: string) =>
      connectSse(`${base}/api/conversations/${id}/events?token=${encodeURIComponent(u.token)}`);
    const streams: SseClient[] = [await open(a, ca), await open(a, ca)];
    try {
      expect(streams.map((s) => s.status)).toEqual([200, 200]);
      expect(streams[0].headers['x-ratelimit-limit']).toBe('2');
      expect(streams[1].headers['x-ratelimit-remaining']).toBe('0');

      const third = await open(a, ca);
      expect(third.status).toBe(429);
      expect(Number(third.headers['retry-after'])).toBeGreaterThan(0);
      expect(third.headers['x-ratelimit-remaining']).toBe('0');
      expect(JSON.parse(await third.body()).detail).toMatch(
        /Too many live connections open at once \(at most 2\)/,
      );

      const other = await open(b, cb);
      expect(other.status).toBe(200);
      other.close();

      streams.shift()?.close();
      // The server notices the closed connection within a moment; then a new stream opens.
      let again: SseClient | null = null;
      for (let i = 0; i < 50 && again?.status !== 200; i++) {
        again?.close();
        await new Promise((r) => setTimeout(r, 20));
        again = await open(a, ca);
      }
      expect(again?.status).toBe(200);
      if (again) streams.push(again);
    } finally {
      for (const s of streams) s.close();
    }
  });

  it('current password: locked after repeated wrong ones (the right one refused too), per user, until the window passes', async () => {
    const [a, b] = [await t.createUser('user'), await t.createUser('user')];
    const change = (u: TestUser, current: string) =>
      t.req({
        method: 'PATCH',
        url: '/api/users/me',
        token: u.token,
        body: { password: 'brand-new-pass', current_password: current },
      });
    for (let i = 0; i < 3; i++) expect((await change(a, 'wrong-guess')).statusCode).toBe(400);
    const locked = await change(a, PASSWORD);
    expectLimited(locked, 3, /Too many wrong current passwords\./);
    expect(locked.json().detail).toMatch(/15 minutes/);
    expect(Number(locked.headers['retry-after'])).toBe(15 * 60);
    // Nothing changed: the old password still signs in.
    expect(await t.login(a.email, PASSWORD)).toBeTruthy();

    expect((await change(b, 'wrong-guess')).statusCode).toBe(400);
    expect((await change(b, PASSWORD)).statusCode).toBe(200);

    advanceMinutes(15);
    expect((await change(a, PASSWORD)).statusCode).toBe(200);
  });

  it('sign-in lockout answers with Retry-After and lifts when the window passes', async () => {
    const a = await t.createUser('user');
    const signIn = (password: string) =>
      t.req({ method: 'POST', url: '/api/auth/token', form: { username: a.email, password } });
    for (let i = 0; i < 3; i++) expect((await signIn('wrong-guess')).statusCode).toBe(401);
    const locked = await signIn(PASSWORD);
    expectLimited(locked, 3, /Too many failed sign-in attempts for this account\./);
    expect(Number(locked.headers['retry-after'])).toBe(15 * 60);
    advanceMinutes(10);
    expect(Number((await signIn(PASSWORD)).headers['retry-after'])).toBe(5 * 60);
    advanceMinutes(5);
    expect((await signIn(PASSWORD)).statusCode).toBe(200);
  });

  // ---- uploads ----

  const multipart = (files: { name: string; size: number }[]) => {
    const boundary = `----cc${randomUUID().replace(/-/g, '')}`;
    const chunks: Buffer[] = [];
    for (const f of files) {
      chunks.push(
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${f.name}"\r\n` +
            'Content-Type: text/plain\r\n\r\n',
        ),
        Buffer.alloc(f.size, 'a'),
        Buffer.from('\r\n'),
      );
    }
    chunks.push(Buffer.from(`--${boundary}--\r\n`));
    return { payload: Buffer.concat(chunks), boundary };
  };
  const upload = (u: TestUser, files: { name: string; size: number }[]) => {
    const { payload, boundary } = multipart(files);
    return t.app.inject({
      method: 'POST',
      url: '/api/files',
      headers: {
        authorization: `Bearer ${u.token}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
      },
      payload,
    });
  };
  const fileRows = (u: TestUser) =>
    t.ctx.db.selectFrom('files').select(['id', 'size']).where('user_id', '=', u.id).execute();
  const storedOnDisk = () => {
    const dir = t.config.filesDir;
    const tmp = path.join(dir, '.tmp');
    const names = existsSync(dir) ? readdirSync(dir).filter((n) => n !== '.tmp') : [];
    return [...names, ...(existsSync(tmp) ? readdirSync(tmp) : [])];
  };

  it('uploads: 429 past the count per minute, with the storage left, per user, then allowed again', async () => {
    const [a, b] = [await t.createUser('user'), await t.createUser('user')];
    const first = await upload(a, [{ name: 'one.txt', size: 1024 }]);
    expect(first.statusCode, first.body).toBe(201);
    expectCounted(first, 2, 1);
    expect((await upload(a, [{ name: 'two.txt', size: 1024 }])).statusCode).toBe(201);
    const refused = await upload(a, [{ name: 'three.txt', size: 10 }]);
    expectLimited(refused, 2, /Too many uploads \(at most 2 a minute\)\. You have 8 KB of storage left\./);
    expect(await fileRows(a)).toHaveLength(2);

    expect((await upload(b, [{ name: 'b.txt', size: 10 }])).statusCode).toBe(201);
    advanceMinutes(1);
    expect((await upload(a, [{ name: 'three.txt', size: 10 }])).statusCode).toBe(201);
  });

  it('storage quota: 413 with what is left when a file does not fit, and nothing is stored', async () => {
    const [a, b] = [await t.createUser('user'), await t.createUser('user')];
    expect((await upload(a, [{ name: 'big.txt', size: 6 * 1024 }])).statusCode).toBe(201);
    const before = storedOnDisk().sort();
    advanceMinutes(1);

    // The first file fits, the second does not: neither is kept.
    const res = await upload(a, [
      { name: 'small.txt', size: 1024 },
      { name: 'too-big.txt', size: 4 * 1024 },
    ]);
    expect(res.statusCode, res.body).toBe(413);
    expect(res.json().detail).toBe(
      '"too-big.txt" (4 KB) is larger than your remaining storage: 3 KB of 10 KB left.',
    );
    expect((await fileRows(a)).map((r) => Number(r.size))).toEqual([6 * 1024]);
    expect(storedOnDisk().sort()).toEqual(before);

    // What is left still fits, and the quota is per user.
    expect((await upload(a, [{ name: 'fits.txt', size: 4 * 1024 }])).statusCode).toBe(201);
    expect((await upload(b, [{ name: 'b-big.txt', size: 9 * 1024 }])).statusCode).toBe(201);
  });
});
