import Fastify, { type FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { apiSuite, createTestApp, type TestApp, type TestUser } from '../../../test/helpers.ts';
import { connectSse } from '../../../test/sse.ts';
import { authPlugin, sessionReader } from '../auth/authenticate.ts';
import { registerErrorHandler } from '../error-handler.ts';
import type { WalDurability } from '../../db/durability.ts';
import { openSseStream } from './sse.ts';

// The platform's stream mechanics, exercised through a tiny route on a real listening server, with a
// real table as the persisted timeline (what modules do with their own tables).
apiSuite('realtime: event bus, SSE streams and stream tickets', () => {
  let t: TestApp;
  let mini: FastifyInstance;
  let base: string;
  let user: TestUser;

  let sharedLoads = 0;
  let keptLoads = 0;
  // A group commit whose flush is due until the test lets it land (a write of someone else in flight).
  let landFlush: () => void = () => {};
  const heldFlush = {
    clean: false,
    settled: () =>
      new Promise<void>((resolve) => {
        landFlush = () => {
          heldFlush.clean = true;
          resolve();
        };
      }),
  };
  const maxSeq = async () =>
    Number(
      (await sql<{ m: number | null }>`select max(seq) as m from rt_test_events`.execute(t.ctx.db)).rows[0]
        ?.m ?? 0,
    );
  const insert = async (text: string) => {
    await sql`insert into rt_test_events (text) values (${text})`.execute(t.ctx.db);
    await t.ctx.bus.publish('rt-test', {});
  };

  beforeAll(async () => {
    t = await createTestApp();
    const idCol =
      t.ctx.dialect === 'postgres'
        ? sql`seq bigserial primary key`
        : sql`seq integer primary key autoincrement`;
    await sql`create table rt_test_events (${idCol}, text text not null)`.execute(t.ctx.db);
    user = await t.createUser('user');
    mini = Fastify({ logger: false });
    registerErrorHandler(mini);
    await mini.register(authPlugin, { sessions: sessionReader(t.ctx.db, t.ctx.signer, null, 0) });
    mini.get('/api/rt-test/events', { config: { stream: true } }, async (req, reply) => {
      await openSseStream(req, reply, t.ctx, {
        channel: 'rt-test',
        pageSize: 2,
        loadAfter: async (cursor, limit) => {
          const rows = await sql<{ seq: number | string; text: string }>`
            select seq, text from rt_test_events where seq > ${Number(cursor ?? 0)} order by seq limit ${limit}`.execute(
            t.ctx.db,
          );
          return rows.rows.map((r) => ({ id: String(r.seq), data: { text: r.text } }));
        },
        onEphemeral: (p) => (p.delta ? { event: 'delta', data: { delta: p.delta } } : null),
        isTerminal: (m) => (m.data as { text?: string }).text === 'END',
      });
    });
    mini.get('/api/rt-test/shared', { config: { stream: true } }, async (req, reply) => {
      await openSseStream(req, reply, t.ctx, {
        channel: 'rt-test',
        shareKey: 'rt-test',
        initialCursor: async () => String(await maxSeq()),
        loadAfter: async (cursor, limit) => {
          sharedLoads++;
          const rows = await sql<{ seq: number | string; text: string }>`
            select seq, text from rt_test_events where seq > ${Number(cursor ?? 0)} order by seq limit ${limit}`.execute(
            t.ctx.db,
          );
          return rows.rows.map((r) => ({ id: String(r.seq), data: { text: r.text } }));
        },
        onEphemeral: (p) => (p.delta ? { event: 'delta', data: { delta: p.delta } } : null),
      });
    });
    // Followers of one shared timeline who may each see only some of its rows.
    mini.get('/api/rt-test/kept', { config: { stream: true } }, async (req, reply) => {
      const hide = String((req.query as { hide?: string }).hide ?? 'hidden');
      await openSseStream(req, reply, t.ctx, {
        channel: 'rt-test',
        shareKey: 'rt-kept',
        pageSize: 2,
        initialCursor: async () => String(await maxSeq()),
        keep: (m) => {
          if (hide === 'THROW') throw new Error('this viewer cannot be decided');
          return !(m.data as { text: string }).text.startsWith(hide);
        },
        loadAfter: async (cursor, limit) => {
          keptLoads++;
          const rows = await sql<{ seq: number | string; text: string }>`
            select seq, text from rt_test_events where seq > ${Number(cursor ?? 0)} order by seq limit ${limit}`.execute(
            t.ctx.db,
          );
          return rows.rows.map((r) => ({ id: String(r.seq), data: { text: r.text } }));
        },
      });
    });
    mini.get('/api/rt-test/held', { config: { stream: true } }, async (req, reply) => {
      const ctx = { ...t.ctx, durability: heldFlush as unknown as WalDurability };
      await openSseStream(req, reply, ctx, {
        channel: 'rt-held',
        // ?shared=1: the same through a shared read (an idle follower takes the rows in the read's loop).
        shareKey: (req.query as { shared?: string }).shared ? 'rt-held' : undefined,
        initialCursor: async () => String(await maxSeq()),
        durableCursor: (p) => (p.seq != null ? String(p.seq) : null),
        loadAfter: async (cursor, limit) => {
          const rows = await sql<{ seq: number | string; text: string }>`
            select seq, text from rt_test_events where seq > ${Number(cursor ?? 0)} order by seq limit ${limit}`.execute(
            t.ctx.db,
          );
          return rows.rows.map((r) => ({ id: String(r.seq), data: { text: r.text } }));
        },
      });
    });
    base = await mini.listen({ port: 0, host: '127.0.0.1' });
  });

  afterAll(async () => {
    await mini?.close();
    await t?.close();
  });

  const url = (q = '') => `${base}/api/rt-test/events${q}`;
  const auth = () => ({ authorization: `Bearer ${user.token}` });

  it('replays persisted events, follows new ones, resumes from Last-Event-ID without duplicates', async () => {
    await insert('one');
    await insert('two');
    await insert('three');
    const s = await connectSse(url(), { headers: auth() });
    expect(s.status).toBe(200);
    expect(s.headers['content-type']).toContain('text/event-stream');
    const first = await s.collect((e) => (e.data as { text: string }).text === 'three');
    expect(first.map((e) => (e.data as { text: string }).text)).toEqual(['one', 'two', 'three']);
    await insert('four');
    const live = await s.next();
    expect(live.data).toEqual({ text: 'four' });
    await t.ctx.bus.publish('rt-test', { delta: 'tok' });
    expect(await s.next()).toMatchObject({ event: 'delta', data: { delta: 'tok' } });
    s.close();

    const resumed = await connectSse(url(), { headers: auth(), lastEventId: first[1].id });
    const again = await resumed.collect((e) => (e.data as { text: string }).text === 'four');
    expect(again.map((e) => (e.data as { text: string }).text)).toEqual(['three', 'four']);
    resumed.close();
    // The query-string form works too (EventSource reconnects made by the web app).
    const viaQuery = await connectSse(url(`?last_event_id=${live.id}`), { headers: auth() });
    await insert('five');
    expect((await viaQuery.next()).data).toEqual({ text: 'five' });
    viaQuery.close();
  });

  it('refuses a stream without a token, accepts a single-use ticket once', async () => {
    const anon = await connectSse(url());
    expect(anon.status).toBe(401);
    expect(JSON.parse(await anon.body())).toHaveProperty('detail');

    const res = await t.req({ method: 'POST', url: '/api/auth/stream-ticket', token: user.token });
    expect(res.statusCode).toBe(200);
    const { ticket, expires_in } = res.json();
    expect(expires_in).toBe(60);
    const ok = await connectSse(url(`?token=${ticket}`));
    expect(ok.status).toBe(200);
    await ok.next();
    ok.close();
    const reused = await connectSse(url(`?token=${ticket}`));
    expect(reused.status).toBe(401);
    reused.close();
    // An access token in the query is accepted for API clients.
    const api = await connectSse(url(`?token=${user.token}`));
    expect(api.status).toBe(200);
    api.close();
  });

  it('ends the stream on a terminal event and removes its listener when the client goes', async () => {
    await new Promise((r) => setTimeout(r, 100)); // earlier tests' closed clients have gone
    const before = t.ctx.bus.listenerCount();
    const s = await connectSse(url(), { headers: auth() });
    await s.next();
    expect(t.ctx.bus.listenerCount()).toBe(before + 1);
    s.close();
    await new Promise((r) => setTimeout(r, 100));
    expect(t.ctx.bus.listenerCount()).toBe(before);

    const s2 = await connectSse(url(), { headers: auth() });
    await insert('END');
    await s2.collect((e) => (e.data as { text: string }).text === 'END');
    await s2.closed;
    await new Promise((r) => setTimeout(r, 50));
    expect(t.ctx.bus.listenerCount()).toBe(before);
  });

  it('streams with a shareKey read each new event once, however many follow', async () => {
    const followers = await Promise.all(
      Array.from({ length: 5 }, () => connectSse(`${base}/api/rt-test/shared`, { headers: auth() })),
    );
    await new Promise((r) => setTimeout(r, 100)); // initial reads done
    const before = sharedLoads;
    await insert('shared-one');
    const got = await Promise.all(followers.map((f) => f.next()));
    expect(got.map((e) => e.data)).toEqual(Array(5).fill({ text: 'shared-one' }));
    expect(sharedLoads - before).toBe(1);
    for (const f of followers) f.close();
  });

  it.each([
    ['its own read', ''],
    ['a shared read', '?shared=1'],
  ])(
    'sends the rows a note vouches for while another flush is due, and holds later rows until it lands (%s)',
    async (_how, query) => {
      heldFlush.clean = false;
      const s = await connectSse(`${base}/api/rt-test/held${query}`, { headers: auth() });
      await new Promise((r) => setTimeout(r, 100)); // the initial read is done (history skipped)
      await sql`insert into rt_test_events (text) values ('vouched')`.execute(t.ctx.db);
      await t.ctx.bus.publish('rt-held', { seq: await maxSeq() });
      expect((await s.next(2000)).data).toEqual({ text: 'vouched' });

      // A row no note vouches for may be a write whose flush is still due: it waits for the flush.
      await sql`insert into rt_test_events (text) values ('unvouched')`.execute(t.ctx.db);
      await t.ctx.bus.publish('rt-held', {});
      await expect(s.next(300)).rejects.toThrow(/no SSE event/);
      landFlush();
      expect((await s.next(2000)).data).toEqual({ text: 'unvouched' });
      s.close();
    },
  );

  it('keeps the notes of a shared stream in order: a message published after a row follows the row', async () => {
    const s = await connectSse(`${base}/api/rt-test/shared`, { headers: auth() });
    await new Promise((r) => setTimeout(r, 100));
    await sql`insert into rt_test_events (text) values ('row-first')`.execute(t.ctx.db);
    await t.ctx.bus.publish('rt-test', {});
    await t.ctx.bus.publish('rt-test', { delta: 'after-the-row' });
    expect((await s.next(2000)).data).toEqual({ text: 'row-first' });
    expect(await s.next(2000)).toMatchObject({ event: 'delta', data: { delta: 'after-the-row' } });
    s.close();
  });

  it('ends a shared stream that fails on a row and still delivers the row to the others', async () => {
    const failing = await connectSse(`${base}/api/rt-test/kept?hide=THROW`, { headers: auth() });
    await new Promise((r) => setTimeout(r, 100)); // subscribed first: its turn in the read's loop comes first
    const other = await connectSse(`${base}/api/rt-test/kept?hide=nothing`, { headers: auth() });
    await new Promise((r) => setTimeout(r, 100));
    await sql`insert into rt_test_events (text) values ('after a failure')`.execute(t.ctx.db);
    await t.ctx.bus.publish('rt-test', {});
    expect((await other.next(2000)).data).toEqual({ text: 'after a failure' });
    await failing.closed;
    other.close();
  });

  it('reads a shared timeline once for followers who see different rows, and moves past rows one may not see', async () => {
    const hidingA = await connectSse(`${base}/api/rt-test/kept?hide=only-b`, { headers: auth() });
    const hidingB = await connectSse(`${base}/api/rt-test/kept?hide=only-a`, { headers: auth() });
    await new Promise((r) => setTimeout(r, 100)); // initial reads done
    const before = keptLoads;
    // A whole page (2 rows) the first follower may not see, then one for everyone.
    await sql`insert into rt_test_events (text) values ('only-a 1'), ('only-a 2'), ('for both')`.execute(
      t.ctx.db,
    );
    await t.ctx.bus.publish('rt-test', {});
    const a = await hidingA.collect((e) => (e.data as { text: string }).text === 'for both');
    const b = await hidingB.collect((e) => (e.data as { text: string }).text === 'for both');
    expect(a.map((e) => (e.data as { text: string }).text)).toEqual(['only-a 1', 'only-a 2', 'for both']);
    expect(b.map((e) => (e.data as { text: string }).text)).toEqual(['for both']);
    // Two pages, each read once for both followers.
    expect(keptLoads - before).toBe(2);
    hidingA.close();
    hidingB.close();
  });

  it('closes the stream within a few seconds when the session is revoked', async () => {
    const other = await t.createUser('user');
    const s = await connectSse(url(), { headers: { authorization: `Bearer ${other.token}` } });
    await s.next();
    const logout = await t.req({ method: 'POST', url: '/api/auth/logout', token: other.token });
    expect(logout.statusCode).toBe(204);
    const started = Date.now();
    await s.closed;
    expect(Date.now() - started).toBeLessThan(6000);
  }, 10_000);
});
