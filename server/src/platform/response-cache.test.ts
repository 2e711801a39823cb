import SQLite from 'better-sqlite3';
import Fastify, { type FastifyInstance } from 'fastify';
import { type Generated, Kysely, SqliteDialect } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiSuite, createTestApp, type TestApp, type TestUser } from '../../test/helpers.ts';
import { ChangeTracker } from '../db/change-tracker.ts';
import { trackingDialect } from '../db/tracking-dialect.ts';
import { registerResponseCache } from './response-cache.ts';

apiSuite('response cache', () => {
  let t: TestApp;
  let ceo: TestUser;
  let member: TestUser;
  let orgId: string;

  beforeAll(async () => {
    t = await createTestApp();
    ceo = await t.createUser('ceo');
    member = await t.createUser('user');
    orgId = await t.createOrg(ceo);
  });
  afterAll(() => t.close());

  const tasks = (u: TestUser) => t.req({ method: 'GET', url: '/api/tasks/', token: u.token });
  const titles = (res: { json(): unknown }) => (res.json() as { title: string }[]).map((x) => x.title);

  it('serves a page again from memory, per caller, until a table it was read from changes', async () => {
    await t.req({ method: 'POST', url: '/api/tasks/', token: ceo.token, body: { title: 'Board deck' } });
    const first = await tasks(ceo);
    expect(first.headers['x-cache']).toBe('miss');
    const again = await tasks(ceo);
    expect(again.headers['x-cache']).toBe('hit');
    expect(again.body).toBe(first.body);
    expect(again.headers['content-type']).toBe('application/json; charset=utf-8');

    // The same URL for someone else is their own page.
    const theirs = await tasks(member);
    expect(theirs.headers['x-cache']).toBe('miss');
    expect(titles(theirs)).toEqual([]);
    expect((await tasks(member)).headers['x-cache']).toBe('hit');

    // Joining the organization and a share change what the member may see.
    await t.addToOrg(ceo, orgId, member);
    const created = await t.req({
      method: 'POST',
      url: '/api/tasks/',
      token: ceo.token,
      body: { title: 'Shared plan' },
    });
    const id = created.json().id as string;
    await t.req({
      method: 'POST',
      url: `/api/tasks/${id}/share/orgs`,
      token: ceo.token,
      body: { ids: [orgId] },
    });
    const shared = await tasks(member);
    expect(shared.headers['x-cache']).toBe('miss');
    expect(titles(shared)).toEqual(['Shared plan']);

    // Leaving the organization hides it again.
    const left = await t.req({
      method: 'DELETE',
      url: `/api/organizations/${orgId}/users/${member.id}`,
      token: ceo.token,
    });
    expect(left.statusCode).toBeLessThan(300);
    expect(titles(await tasks(member))).toEqual([]);

    // A rename of the creator shows in the next page (users is read for the names).
    await t.req({
      method: 'PATCH',
      url: '/api/users/me',
      token: ceo.token,
      body: { first_name: 'Renamed' },
    });
    const renamed = (await tasks(ceo)).json() as { created_by_user: { name: string } }[];
    expect(renamed[0].created_by_user.name).toMatch(/^Renamed/);
  });

  it('a signed-out session is refused although its pages are cached', async () => {
    const u = await t.createUser('user');
    await tasks(u);
    expect((await tasks(u)).headers['x-cache']).toBe('hit');
    const out = await t.req({ method: 'POST', url: '/api/auth/logout', token: u.token });
    expect(out.statusCode).toBeLessThan(300);
    expect((await tasks(u)).statusCode).toBe(401);
  });
});

/**
 * The cache's own mechanics on a small app over a real SQLite database: invalidation by a write through
 * the data layer, and requests lined up behind the read of a busy page. (What every route of the app
 * reads and answers is checked in cached-routes.test.ts.)
 */
describe('response cache on a small app', () => {
  let app: FastifyInstance;
  let sqlite: SQLite.Database;
  let gate: Promise<void> = Promise.resolve();
  let open: () => void = () => {};
  const closeGate = () => {
    gate = new Promise((r) => {
      open = r;
    });
  };
  const ticks = async (n: number) => {
    for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r));
  };

  beforeAll(async () => {
    sqlite = new SQLite(':memory:');
    sqlite.exec(`create table items (id integer primary key, name text);
      insert into items (name) values ('first');`);
    const changes = new ChangeTracker(sqlite);
    const db = new Kysely<{
      items: { id: Generated<number>; name: string };
    }>({ dialect: trackingDialect(new SqliteDialect({ database: sqlite }), changes) });
    app = Fastify();
    app.decorateRequest('user', null);
    app.addHook('preHandler', async (req) => {
      req.user = {
        id: 'u1',
        email: 'u1@test.example',
        first_name: null,
        last_name: null,
        user_level: 'user',
        organization_id: null,
      };
    });
    registerResponseCache(app, changes, 1024 * 1024);
    app.get('/items', { config: { cache: ['items'] } }, async () =>
      db.selectFrom('items').select('name').execute(),
    );
    // Reads the page, then holds it until the test opens the gate (to line requests up behind it).
    app.get('/held-items', { config: { cache: ['items'] } }, async () => {
      const rows = await db.selectFrom('items').select('name').execute();
      await gate;
      return rows;
    });
    app.post('/items', async () => {
      await db.insertInto('items').values({ name: 'second' }).execute();
      return { ok: true };
    });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    sqlite.close();
  });

  it('a write through the data layer makes the next read fresh', async () => {
    expect((await app.inject({ url: '/items' })).json()).toEqual([{ name: 'first' }]);
    expect((await app.inject({ url: '/items' })).headers['x-cache']).toBe('hit');
    await app.inject({ method: 'POST', url: '/items' });
    const res = await app.inject({ url: '/items' });
    expect(res.headers['x-cache']).toBe('miss');
    expect(res.json()).toEqual([{ name: 'first' }, { name: 'second' }]);
  });

  it('requests that miss a page while it is being read wait for that read instead of reading it too', async () => {
    await app.inject({ method: 'POST', url: '/items' });
    closeGate();
    const all = Array.from({ length: 4 }, () => app.inject({ url: '/held-items' }));
    await ticks(20);
    open();
    const res = await Promise.all(all);
    expect(res.map((r) => r.headers['x-cache']).sort()).toEqual(['hit', 'hit', 'hit', 'miss']);
    expect(new Set(res.map((r) => r.body)).size).toBe(1);
  });

  it('a write during that read sends the waiting requests to the database for the new page', async () => {
    await app.inject({ method: 'POST', url: '/items' });
    closeGate();
    const first = app.inject({ url: '/held-items' });
    await ticks(20);
    const behind = [app.inject({ url: '/held-items' }), app.inject({ url: '/held-items' })];
    await ticks(20);
    await app.inject({ method: 'POST', url: '/items' });
    open();
    const before = (await first).json() as unknown[];
    for (const r of await Promise.all(behind)) {
      expect(r.headers['x-cache']).toBe('miss');
      expect((r.json() as unknown[]).length).toBe(before.length + 1);
    }
  });
});
