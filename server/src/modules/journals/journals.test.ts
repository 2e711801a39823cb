import { todayUtc } from '@cc/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { apiSuite, createTestApp, TEST_DB, type TestApp, type TestUser } from '../../../test/helpers.ts';
import { expectIndexedPlan, sqlitePlan } from '../../../test/query-plan.ts';
import { listJournalsQuery } from './journals.repository.ts';

apiSuite('journals', () => {
  let t: TestApp;
  let owner: TestUser;
  let colleague: TestUser;
  let outsider: TestUser;
  let waitlisted: TestUser;
  beforeAll(async () => {
    t = await createTestApp();
    owner = await t.createUser('ceo');
    colleague = await t.createUser('user');
    outsider = await t.createUser('user');
    waitlisted = await t.createUser('waitlisted');
    // Same organization: notes stay private all the same.
    const org = await t.createOrg(owner, 'Notes Co');
    await t.addToOrg(owner, org, colleague, 'admin');
  });
  afterAll(() => t.close());

  const create = (u: TestUser, body: unknown) =>
    t.req({ method: 'POST', url: '/api/journals/', token: u.token, body });
  const list = async (u: TestUser, qs = '') => {
    const res = await t.req({ method: 'GET', url: `/api/journals/${qs}`, token: u.token });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { id: string; content: string; entry_date: string }[];
  };

  it('creates an entry owned by the caller, dated today (UTC) by default, ignoring user_id', async () => {
    const res = await create(owner, { content: '# Board prep\n- numbers', user_id: outsider.id });
    expect(res.statusCode).toBe(201);
    const j = res.json();
    expect(j).toMatchObject({
      user_id: owner.id,
      content: '# Board prep\n- numbers',
      entry_date: todayUtc(),
    });
    expect(j.created_at).toBe(j.updated_at);
    const got = await t.req({ method: 'GET', url: `/api/journals/${j.id}`, token: owner.token });
    expect(got.json()).toEqual(j);
  });

  it('keeps entry_date as a date only; a date-time is cut to its date', async () => {
    const a = await create(owner, { content: 'a', entry_date: '2026-03-04' });
    expect(a.json().entry_date).toBe('2026-03-04');
    const b = await create(owner, { content: 'b', entry_date: '2026-03-05T23:30:00-05:00' });
    expect(b.json().entry_date).toBe('2026-03-05');
  });

  it('refuses blank content, bad dates and unknown fields (422 with field details)', async () => {
    for (const body of [{}, { content: '' }, { content: '   \n ' }]) {
      const res = await create(owner, body);
      expect(res.statusCode).toBe(422);
      expect(res.json().detail[0]).toMatchObject({ loc: ['body', 'content'], msg: 'Content is required.' });
    }
    const badFormat = await create(owner, { content: 'x', entry_date: '04/03/2026' });
    expect(badFormat.statusCode).toBe(422);
    expect(badFormat.json().detail[0].msg).toBe('Use the date format YYYY-MM-DD');
    const notADay = await create(owner, { content: 'x', entry_date: '2026-02-30' });
    expect(notADay.json().detail[0].msg).toBe('Invalid date');
    const extra = await create(owner, { content: 'x', mood: 'great' });
    expect(extra.statusCode).toBe(422);
    const badQuery = await t.req({ method: 'GET', url: '/api/journals/?limit=201', token: owner.token });
    expect(badQuery.statusCode).toBe(422);
  });

  it('updates content and keeps entry_date when it is left out; others cannot touch it', async () => {
    const j = (await create(owner, { content: 'first', entry_date: '2026-01-10' })).json();
    const put = await t.req({
      method: 'PUT',
      url: `/api/journals/${j.id}`,
      token: owner.token,
      body: { content: 'second' },
    });
    expect(put.statusCode).toBe(200);
    expect(put.json()).toMatchObject({ content: 'second', entry_date: '2026-01-10' });
    const moved = await t.req({
      method: 'PUT',
      url: `/api/journals/${j.id}`,
      token: owner.token,
      body: { content: 'second', entry_date: '2026-01-11' },
    });
    expect(moved.json().entry_date).toBe('2026-01-11');
    const blank = await t.req({
      method: 'PUT',
      url: `/api/journals/${j.id}`,
      token: owner.token,
      body: { content: ' ' },
    });
    expect(blank.statusCode).toBe(422);
  });

  it('permission matrix: private to the owner (org colleague and outsider 404, waitlisted 403, anonymous 401)', async () => {
    const j = (await create(owner, { content: 'private thoughts' })).json();
    const calls = [
      { method: 'GET', url: `/api/journals/${j.id}` },
      { method: 'PUT', url: `/api/journals/${j.id}`, body: { content: 'hijacked' } },
      { method: 'DELETE', url: `/api/journals/${j.id}` },
    ] as const;
    for (const [who, status] of [
      [colleague, 404],
      [outsider, 404],
      [waitlisted, 403],
      [undefined, 401],
    ] as const) {
      for (const c of calls) {
        const res = await t.req({ ...c, token: who?.token });
        expect(res.statusCode, `${c.method} ${c.url} as ${who?.user_level ?? 'anonymous'}`).toBe(status);
      }
    }
    expect((await t.req({ method: 'GET', url: '/api/journals/', token: waitlisted.token })).statusCode).toBe(
      403,
    );
    expect((await create(waitlisted, { content: 'x' })).statusCode).toBe(403);
    expect((await list(colleague)).map((e) => e.id)).not.toContain(j.id);
    const still = await t.req({ method: 'GET', url: `/api/journals/${j.id}`, token: owner.token });
    expect(still.json().content).toBe('private thoughts');
    const del = await t.req({ method: 'DELETE', url: `/api/journals/${j.id}`, token: owner.token });
    expect(del.statusCode).toBe(204);
    const gone = await t.req({ method: 'GET', url: `/api/journals/${j.id}`, token: owner.token });
    expect(gone.statusCode).toBe(404);
  });

  it('lists newest entry_date first, then newest created; sort=oldest reverses; from/to are inclusive', async () => {
    const u = await t.createUser('user');
    const ids: Record<string, string> = {};
    for (const [key, date, created] of [
      ['jan', '2026-01-15', '2026-02-01T10:00:00.000Z'],
      ['feb-early', '2026-02-10', '2026-02-10T09:00:00.000Z'],
      ['feb-late', '2026-02-10', '2026-02-10T18:00:00.000Z'],
      ['mar', '2026-03-01', '2026-01-01T00:00:00.000Z'],
    ] as const) {
      ids[key] = (await create(u, { content: `entry ${key}`, entry_date: date })).json().id;
      await t.ctx.db
        .updateTable('journals')
        .set({ created_at: created })
        .where('id', '=', ids[key])
        .execute();
    }
    const order = (rows: { id: string }[]) => rows.map((r) => Object.keys(ids).find((k) => ids[k] === r.id));
    expect(order(await list(u))).toEqual(['mar', 'feb-late', 'feb-early', 'jan']);
    expect(order(await list(u, '?sort=oldest'))).toEqual(['jan', 'feb-early', 'feb-late', 'mar']);
    expect(order(await list(u, '?from=2026-02-10&to=2026-03-01'))).toEqual(['mar', 'feb-late', 'feb-early']);
    expect(order(await list(u, '?to=2026-02-09'))).toEqual(['jan']);
    expect(order(await list(u, '?skip=1&limit=2'))).toEqual(['feb-late', 'feb-early']);
  });

  it('searches content case-insensitively, treating % and _ literally', async () => {
    const u = await t.createUser('user');
    await create(u, { content: 'Revenue grew 50% in Q3' });
    await create(u, { content: 'revenue flat' });
    await create(u, { content: 'Hiring plan_v2' });
    await create(u, { content: 'Hiring planXv2' });
    expect((await list(u, '?search=REVENUE')).length).toBe(2);
    expect((await list(u, `?search=${encodeURIComponent('50%')}`)).map((e) => e.content)).toEqual([
      'Revenue grew 50% in Q3',
    ]);
    expect((await list(u, '?search=plan_v2')).map((e) => e.content)).toEqual(['Hiring plan_v2']);
    expect(await list(u, '?search=nothing-like-this')).toEqual([]);
  });

  it('pages with skip/limit (default 100)', async () => {
    const u = await t.createUser('user');
    for (let i = 0; i < 103; i++) {
      await create(u, { content: `n${i}`, entry_date: `2025-01-${String((i % 28) + 1).padStart(2, '0')}` });
    }
    const first = await list(u);
    expect(first.length).toBe(100);
    const rest = await list(u, '?skip=100&limit=100');
    expect(rest.length).toBe(3);
    expect(new Set([...first, ...rest].map((e) => e.id)).size).toBe(103);
  });

  // The planner of PostgreSQL may prefer a sequential scan on tiny tables, so the plan is checked on SQLite.
  it.skipIf(TEST_DB === 'postgres')('the list query is served by an index', async () => {
    const base = { sort: 'newest', skip: 0, limit: 50 } as const;
    for (const opts of [
      base,
      { ...base, sort: 'oldest' },
      { ...base, search: 'x', from: '2026-01-01', to: '2026-12-31' },
    ] as const) {
      expectIndexedPlan(await sqlitePlan(t.ctx.db, listJournalsQuery(t.ctx.db, owner.id, opts)), 'journals');
    }
  });
});
