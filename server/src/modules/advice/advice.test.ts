import { afterAll, beforeAll, expect, it } from 'vitest';
import { apiSuite, createTestApp, TEST_DB, type TestApp, type TestUser } from '../../../test/helpers.ts';
import { expectIndexedPlan, sqlitePlan } from '../../../test/query-plan.ts';
import { listAdviceQuery } from './advice.repository.ts';

interface Advice {
  id: string;
  advice_title: string | null;
  content: string;
  feedback: string | null;
  organization_id: string | null;
  can_edit: boolean;
}

apiSuite('strategic advice', () => {
  let t: TestApp;
  let ceo: TestUser;
  let member: TestUser;
  let manager: TestUser;
  let outsider: TestUser;
  let waitlisted: TestUser;
  let orgA: string;
  let orgB: string;
  beforeAll(async () => {
    t = await createTestApp();
    ceo = await t.createUser('ceo');
    member = await t.createUser('user');
    manager = await t.createUser('user');
    outsider = await t.createUser('ceo');
    waitlisted = await t.createUser('waitlisted');
    orgA = await t.createOrg(ceo, 'Advice Co');
    orgB = await t.createOrg(outsider, 'Other Co');
    await t.addToOrg(ceo, orgA, member, 'user');
    await t.addToOrg(ceo, orgA, manager, 'manager');
  });
  afterAll(() => t.close());

  const create = (u: TestUser | undefined, body: Record<string, unknown>) =>
    t.req({ method: 'POST', url: '/api/strategic-advice/', token: u?.token, body });
  const make = async (u: TestUser, body: Record<string, unknown> = {}): Promise<Advice> => {
    const res = await create(u, { content: '## Focus on retention', ...body });
    expect(res.statusCode, res.body).toBe(201);
    return res.json();
  };
  const list = async (u: TestUser, qs = ''): Promise<Advice[]> => {
    const res = await t.req({ method: 'GET', url: `/api/strategic-advice/${qs}`, token: u.token });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };

  it('creates advice owned by the caller with every field of the spec', async () => {
    const res = await create(ceo, {
      advice_title: ' Q3 focus ',
      content: '## Focus\n- retention',
      feedback: 'Agreed',
      crew_run_id: 'run-123',
      organization_id: orgA,
      user_id: outsider.id,
    });
    expect(res.statusCode).toBe(201);
    const a = res.json();
    expect(a).toMatchObject({
      advice_title: 'Q3 focus',
      content: '## Focus\n- retention',
      feedback: 'Agreed',
      crew_run_id: 'run-123',
      organization_id: orgA,
      user_id: ceo.id,
      can_edit: true,
    });
    expect(typeof a.created_at).toBe('string');
    const got = await t.req({ method: 'GET', url: `/api/strategic-advice/${a.id}`, token: member.token });
    expect(got.json()).toEqual({ ...a, can_edit: false });
  });

  it('requires content ("Content required") and refuses foreign organizations', async () => {
    for (const body of [{}, { content: '' }, { content: '  \n' }, { advice_title: 'only a title' }]) {
      const res = await create(ceo, body);
      expect(res.statusCode).toBe(422);
      expect(res.json().detail[0]).toMatchObject({ loc: ['body', 'content'], msg: 'Content required' });
    }
    const a = await make(ceo);
    const blank = await t.req({
      method: 'PUT',
      url: `/api/strategic-advice/${a.id}`,
      token: ceo.token,
      body: { content: ' ' },
    });
    expect(blank.statusCode).toBe(422);
    expect(blank.json().detail[0].msg).toBe('Content required');
    const foreign = await create(ceo, { content: 'x', organization_id: orgB });
    expect(foreign.statusCode).toBe(403);
    expect((await create(ceo, { content: 'x', rating: 5 })).statusCode).toBe(422);
  });

  it('updates content (other fields stay) and saves feedback through PATCH …/feedback', async () => {
    const a = await make(ceo, { advice_title: 'Title', feedback: 'first', organization_id: orgA });
    const put = await t.req({
      method: 'PUT',
      url: `/api/strategic-advice/${a.id}`,
      token: ceo.token,
      body: { content: 'New content' },
    });
    expect(put.statusCode).toBe(200);
    expect(put.json()).toMatchObject({ content: 'New content', advice_title: 'Title', feedback: 'first' });
    const fb = await t.req({
      method: 'PATCH',
      url: `/api/strategic-advice/${a.id}/feedback`,
      token: manager.token,
      body: { feedback: 'Let us do it' },
    });
    expect(fb.statusCode).toBe(200);
    expect(fb.json()).toMatchObject({ feedback: 'Let us do it', content: 'New content' });
    const cleared = await t.req({
      method: 'PATCH',
      url: `/api/strategic-advice/${a.id}/feedback`,
      token: ceo.token,
      body: { feedback: '   ' },
    });
    expect(cleared.json().feedback).toBeNull();
    const missing = await t.req({
      method: 'PATCH',
      url: `/api/strategic-advice/${a.id}/feedback`,
      token: ceo.token,
      body: {},
    });
    expect(missing.statusCode).toBe(422);
  });

  it('permission matrix: owner and org admin/manager change; members read; outsiders 404; waitlisted 403', async () => {
    const inOrg = () => make(ceo, { organization_id: orgA });
    const rows: [string, TestUser | undefined, () => Promise<Advice>, [number, number, number, number]][] = [
      // [GET, PUT, PATCH feedback, DELETE]
      ['owner', ceo, () => make(ceo), [200, 200, 200, 204]],
      ['org manager', manager, inOrg, [200, 200, 200, 204]],
      ['plain org member', member, inOrg, [200, 403, 403, 403]],
      ['colleague, private advice', member, () => make(ceo), [404, 404, 404, 404]],
      ['outsider', outsider, inOrg, [404, 404, 404, 404]],
      ['waitlisted', waitlisted, inOrg, [403, 403, 403, 403]],
      ['anonymous', undefined, inOrg, [401, 401, 401, 401]],
    ];
    for (const [who, u, fresh, [get, put, patch, del]] of rows) {
      const a = await fresh();
      const url = `/api/strategic-advice/${a.id}`;
      expect((await t.req({ method: 'GET', url, token: u?.token })).statusCode, `GET ${who}`).toBe(get);
      const r2 = await t.req({ method: 'PUT', url, token: u?.token, body: { content: 'changed' } });
      expect(r2.statusCode, `PUT ${who}`).toBe(put);
      const r3 = await t.req({
        method: 'PATCH',
        url: `${url}/feedback`,
        token: u?.token,
        body: { feedback: 'changed' },
      });
      expect(r3.statusCode, `PATCH ${who}`).toBe(patch);
      expect((await t.req({ method: 'DELETE', url, token: u?.token })).statusCode, `DELETE ${who}`).toBe(del);
      const stored = await t.ctx.db
        .selectFrom('strategic_advice')
        .select(['content', 'feedback'])
        .where('id', '=', a.id)
        .executeTakeFirst();
      if (del === 204) expect(stored, who).toBeUndefined();
      else expect(stored, who).toEqual({ content: a.content, feedback: null });
    }
    expect((await create(waitlisted, { content: 'x' })).statusCode).toBe(403);
    expect((await create(undefined, { content: 'x' })).statusCode).toBe(401);
  });

  it('lists newest first, own and organization advice only, with organization filter and pages', async () => {
    const u = await t.createUser('ceo');
    const org = await t.createOrg(u, 'List Co');
    const peer = await t.createUser('user');
    await t.addToOrg(u, org, peer);
    const items = {
      mine: await make(u),
      orgOld: await make(peer, { organization_id: org }),
      orgNew: await make(u, { organization_id: org }),
      peerPrivate: await make(peer),
    };
    const days: Record<string, string> = { mine: '03', orgOld: '01', orgNew: '04', peerPrivate: '02' };
    for (const [k, d] of Object.entries(days)) {
      await t.ctx.db
        .updateTable('strategic_advice')
        .set({ created_at: `2026-05-${d}T12:00:00.000Z` })
        .where('id', '=', items[k as keyof typeof items].id)
        .execute();
    }
    const names = (rows: Advice[]) =>
      rows.map((r) => Object.keys(items).find((k) => items[k as keyof typeof items].id === r.id));
    expect(names(await list(u))).toEqual(['orgNew', 'mine', 'orgOld']);
    expect(names(await list(peer))).toEqual(['orgNew', 'peerPrivate', 'orgOld']);
    expect(names(await list(u, '?limit=1'))).toEqual(['orgNew']);
    expect(names(await list(u, '?skip=1&limit=1'))).toEqual(['mine']);
    expect(names(await list(u, `?organization_id=${org}`))).toEqual(['orgNew', 'orgOld']);
    const foreign = await t.req({
      method: 'GET',
      url: `/api/strategic-advice/?organization_id=${orgB}`,
      token: u.token,
    });
    expect(foreign.statusCode).toBe(403);
    expect(await list(outsider, `?organization_id=${orgB}`)).toEqual([]);
  });

  // PostgreSQL's planner may prefer a sequential scan on tiny tables, so the plan is checked on SQLite.
  it.skipIf(TEST_DB === 'postgres')('the list query is served by indexes', async () => {
    for (const orgIds of [[orgA, orgB], []]) {
      const plan = await sqlitePlan(
        t.ctx.db,
        listAdviceQuery(t.ctx.db, { userId: ceo.id, orgIds, skip: 0, limit: 1 }),
      );
      expectIndexedPlan(plan, 'strategic_advice');
    }
  });
});
