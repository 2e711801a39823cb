import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { apiSuite, createTestApp, TEST_DB, type TestApp, type TestUser } from '../../../test/helpers.ts';
import { expectListsFresh } from '../../../test/fresh-lists.ts';
import {
  expectIndexedPlan,
  expectMergedIndexBranches,
  sqlitePlan,
  sqlitePlanTree,
} from '../../../test/query-plan.ts';
import { listGoalsQuery } from './goals.repository.ts';

interface Goal {
  id: string;
  title: string;
  status: string;
  due_date: string;
  progress: number;
  organization_id: string | null;
  kpis: {
    id: string;
    name: string;
    current_value: number;
    target_value: number | null;
    unit: string | null;
  }[];
  can_edit: boolean;
  can_delete: boolean;
}

apiSuite('strategic goals', () => {
  let t: TestApp;
  let ceo: TestUser; // owns org A (admin there)
  let member: TestUser; // plain member of A
  let manager: TestUser; // manager of A
  let outsider: TestUser;
  let waitlisted: TestUser;
  let orgA: string;
  let orgB: string; // the outsider's organization
  beforeAll(async () => {
    t = await createTestApp();
    ceo = await t.createUser('ceo');
    member = await t.createUser('user');
    manager = await t.createUser('user');
    outsider = await t.createUser('ceo');
    waitlisted = await t.createUser('waitlisted');
    orgA = await t.createOrg(ceo, 'Goal Co');
    orgB = await t.createOrg(outsider, 'Elsewhere');
    await t.addToOrg(ceo, orgA, member, 'user');
    await t.addToOrg(ceo, orgA, manager, 'manager');
  });
  afterAll(() => t.close());
  // After each case's writes, every list page equals its rows presented afresh (stored entries).
  afterEach(() => expectListsFresh(t, [ceo, member, manager, outsider], { include_completed: 'true' }));

  const create = (u: TestUser, body: Record<string, unknown>) =>
    t.req({ method: 'POST', url: '/api/strategic-goals/', token: u.token, body });
  const make = async (u: TestUser, body: Record<string, unknown>): Promise<Goal> => {
    const res = await create(u, { due_date: '2026-12-31', ...body });
    expect(res.statusCode, res.body).toBe(201);
    return res.json();
  };
  const list = async (u: TestUser, qs = ''): Promise<Goal[]> => {
    const res = await t.req({ method: 'GET', url: `/api/strategic-goals/${qs}`, token: u.token });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  const put = (u: TestUser, id: string, body: Record<string, unknown>) =>
    t.req({ method: 'PUT', url: `/api/strategic-goals/${id}`, token: u.token, body });

  it('creates a goal with KPIs in order, status new by default, progress from the shared formula', async () => {
    const res = await create(ceo, {
      title: 'Grow ARR',
      description: 'Reach **$10M**',
      due_date: '2026-12-31',
      organization_id: orgA,
      user_id: outsider.id,
      kpis: [
        { name: 'ARR', current_value: 5, target_value: 10, unit: 'M$' },
        { name: 'Logos', current_value: 300, target_value: 100 },
        { name: 'NPS', current_value: 40, target_value: null },
      ],
    });
    expect(res.statusCode).toBe(201);
    const g = res.json();
    expect(g).toMatchObject({
      title: 'Grow ARR',
      description: 'Reach **$10M**',
      status: 'new',
      user_id: ceo.id,
      organization_id: orgA,
      organization_name: 'Goal Co',
      progress: 50, // (50 + 100 + 0) / 3
      can_edit: true,
      can_delete: true,
    });
    expect(
      g.kpis.map((k: Goal['kpis'][number]) => [k.name, k.current_value, k.target_value, k.unit]),
    ).toEqual([
      ['ARR', 5, 10, 'M$'],
      ['Logos', 300, 100, null],
      ['NPS', 40, null, null],
    ]);
    const empty = await make(ceo, { title: 'No KPIs' });
    expect(empty).toMatchObject({ progress: 0, kpis: [], organization_id: null });
    const got = await t.req({ method: 'GET', url: `/api/strategic-goals/${g.id}`, token: ceo.token });
    expect(got.json()).toEqual(g);
  });

  it('validates with the spec message and refuses organizations the caller is not in', async () => {
    for (const body of [{ due_date: '2026-01-01' }, { title: 'x' }, { title: ' ', due_date: '' }]) {
      const res = await create(ceo, body);
      expect(res.statusCode).toBe(422);
      expect(res.json().detail[0].msg).toBe('Title and Due Date are required.');
    }
    const badStatus = await create(ceo, { title: 'x', due_date: '2026-01-01', status: 'won' });
    expect(badStatus.statusCode).toBe(422);
    expect(badStatus.json().detail[0].loc).toEqual(['body', 'status']);
    const badKpi = await create(ceo, {
      title: 'x',
      due_date: '2026-01-01',
      kpis: [{ name: 'a', target_value: 'lots' }],
    });
    expect(badKpi.json().detail[0].msg).toBe('KPI values must be numbers');
    const foreign = await create(ceo, { title: 'x', due_date: '2026-01-01', organization_id: orgB });
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json().detail).toBe('You are not a member of this organization.');
    const unknown = await create(ceo, { title: 'x', due_date: '2026-01-01', organization_id: 'no-such-org' });
    expect(unknown.statusCode).toBe(403);
    const extra = await create(ceo, { title: 'x', due_date: '2026-01-01', owner: 'me' });
    expect(extra.statusCode).toBe(422);
  });

  it('PUT replaces the KPI list in one go, keeping the ids of KPIs that stay; kpis left out stay', async () => {
    const g = await make(ceo, {
      title: 'Hire',
      kpis: [
        { name: 'Engineers', current_value: 2, target_value: 10 },
        { name: 'Sales', current_value: 1, target_value: 4 },
      ],
    });
    const [eng] = g.kpis;
    const res = await put(ceo, g.id, {
      title: 'Hire well',
      due_date: '2027-01-31',
      status: 'in_progress',
      kpis: [
        { id: 'someone-elses-id', name: 'Designers', current_value: 1, target_value: 1 },
        { id: eng.id, name: 'Engineers', current_value: 5, target_value: 10 },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    const u: Goal = res.json();
    expect(u).toMatchObject({
      title: 'Hire well',
      due_date: '2027-01-31',
      status: 'in_progress',
      progress: 75,
    });
    expect(u.kpis.map((k) => k.name)).toEqual(['Designers', 'Engineers']);
    expect(u.kpis[1].id).toBe(eng.id);
    expect(u.kpis[0].id).not.toBe('someone-elses-id');
    const rows = await t.ctx.db.selectFrom('goal_kpis').select('name').where('goal_id', '=', g.id).execute();
    expect(rows.map((r) => r.name).sort()).toEqual(['Designers', 'Engineers']);
    const keep = await put(ceo, g.id, {
      title: 'Hire well',
      due_date: '2027-01-31',
      description: 'now described',
    });
    expect(keep.json().kpis.length).toBe(2);
    expect(keep.json().status).toBe('in_progress');
    const missing = await put(ceo, g.id, { title: 'Only a title' });
    expect(missing.statusCode).toBe(422);
    expect(missing.json().detail[0].msg).toBe('Title and Due Date are required.');
    const cleared = await put(ceo, g.id, { title: 'Hire well', due_date: '2027-01-31', kpis: [] });
    expect(cleared.json()).toMatchObject({ kpis: [], progress: 0 });
  });

  it('permission matrix: owner and org admin/manager edit and delete; members read; outsiders 404; waitlisted 403', async () => {
    const orgGoal = () => make(member, { title: 'Member goal', organization_id: orgA });
    const privateGoal = () => make(member, { title: 'Private goal' });
    const body = { title: 'Edited', due_date: '2026-06-30' };
    const rows: [string, TestUser | undefined, () => Promise<Goal>, [number, number, number]][] = [
      ['owner', member, privateGoal, [200, 200, 204]],
      ['org admin (ceo)', ceo, orgGoal, [200, 200, 204]],
      ['org manager', manager, orgGoal, [200, 200, 204]],
      [
        'plain org member',
        member,
        () => make(ceo, { title: 'CEO goal', organization_id: orgA }),
        [200, 403, 403],
      ],
      ['colleague, private goal', ceo, privateGoal, [404, 404, 404]],
      ['outsider', outsider, orgGoal, [404, 404, 404]],
      ['waitlisted', waitlisted, orgGoal, [403, 403, 403]],
      ['anonymous', undefined, orgGoal, [401, 401, 401]],
    ];
    for (const [who, u, fresh, [get, upd, del]] of rows) {
      const g = await fresh();
      const r1 = await t.req({ method: 'GET', url: `/api/strategic-goals/${g.id}`, token: u?.token });
      expect(r1.statusCode, `GET as ${who}`).toBe(get);
      const r2 = await t.req({ method: 'PUT', url: `/api/strategic-goals/${g.id}`, token: u?.token, body });
      expect(r2.statusCode, `PUT as ${who}`).toBe(upd);
      const r3 = await t.req({ method: 'DELETE', url: `/api/strategic-goals/${g.id}`, token: u?.token });
      expect(r3.statusCode, `DELETE as ${who}`).toBe(del);
      const stored = await t.ctx.db
        .selectFrom('strategic_goals')
        .select(['title', 'user_id'])
        .where('id', '=', g.id)
        .executeTakeFirst();
      // nothing changed unless the caller had the right
      if (del === 204) expect(stored, who).toBeUndefined();
      else expect(stored?.title, who).toBe(g.title);
    }
    const plain = await make(ceo, { title: 'CEO goal', organization_id: orgA });
    const asMember = (await list(member)).find((g) => g.id === plain.id);
    expect(asMember).toMatchObject({ can_edit: false, can_delete: false });
    const asManager = (await list(manager)).find((g) => g.id === plain.id);
    expect(asManager).toMatchObject({ can_edit: true, can_delete: true });
    const deleted = await make(member, {
      title: 'With KPIs',
      kpis: [{ name: 'k', current_value: 1, target_value: 2 }],
    });
    await t.req({ method: 'DELETE', url: `/api/strategic-goals/${deleted.id}`, token: member.token });
    expect(
      await t.ctx.db.selectFrom('goal_kpis').select('id').where('goal_id', '=', deleted.id).execute(),
    ).toEqual([]);
  });

  it('an editor can move a goal only to an organization they belong to', async () => {
    const g = await make(member, { title: 'Movable', organization_id: orgA });
    const toForeign = await put(manager, g.id, {
      title: 'Movable',
      due_date: '2026-12-31',
      organization_id: orgB,
    });
    expect(toForeign.statusCode).toBe(403);
    const toPrivate = await put(member, g.id, {
      title: 'Movable',
      due_date: '2026-12-31',
      organization_id: null,
    });
    expect(toPrivate.json().organization_id).toBeNull();
    expect(
      (await t.req({ method: 'GET', url: `/api/strategic-goals/${g.id}`, token: manager.token })).statusCode,
    ).toBe(404);
  });

  it('lists own and organization goals only, with filters, sorts and pages', async () => {
    const u = await t.createUser('ceo');
    const org = await t.createOrg(u, 'Filter Co');
    const peer = await t.createUser('user');
    await t.addToOrg(u, org, peer);
    const other = await t.createOrg(u, 'Second Co');
    const g = {
      a: await make(u, { title: 'Alpha revenue', due_date: '2026-05-01', status: 'in_progress' }),
      b: await make(u, {
        title: 'Beta hiring',
        due_date: '2026-03-01',
        status: 'done',
        organization_id: org,
      }),
      c: await make(peer, {
        title: 'Gamma',
        description: 'more REVENUE',
        due_date: '2026-04-01',
        organization_id: org,
      }),
      d: await make(u, { title: 'Delta', due_date: '2026-02-01', status: 'failed', organization_id: other }),
      e: await make(peer, { title: 'Peer private', due_date: '2026-01-01' }),
    };
    const stamp: Record<string, string> = {
      a: '2026-01-05',
      b: '2026-01-04',
      c: '2026-01-03',
      d: '2026-01-02',
    };
    for (const [k, day] of Object.entries(stamp)) {
      await t.ctx.db
        .updateTable('strategic_goals')
        .set({ created_at: `${day}T00:00:00.000Z` })
        .where('id', '=', g[k as keyof typeof g].id)
        .execute();
    }
    const names = (rows: Goal[]) =>
      rows.map((r) => Object.keys(g).find((k) => g[k as keyof typeof g].id === r.id));
    // default: due_date ascending, done hidden, failed shown, peer's private goal invisible
    expect(names(await list(u))).toEqual(['d', 'c', 'a']);
    expect(names(await list(u, '?include_completed=true'))).toEqual(['d', 'b', 'c', 'a']);
    expect(names(await list(u, '?include_completed=false'))).toEqual(['d', 'c', 'a']);
    expect(names(await list(u, '?status=done'))).toEqual(['b']);
    expect(names(await list(u, '?sort_by=created_at&include_completed=true'))).toEqual(['a', 'b', 'c', 'd']);
    expect(names(await list(u, '?sort_by=status&include_completed=true'))).toEqual(['c', 'a', 'b', 'd']);
    expect(names(await list(u, '?search=revenue'))).toEqual(['c', 'a']);
    expect(names(await list(u, `?organization_id=${org}&include_completed=true`))).toEqual(['b', 'c']);
    expect(names(await list(u, '?include_completed=true&skip=1&limit=2'))).toEqual(['b', 'c']);
    // pages merged from the visibility branches are slices of the whole list, for every sort
    for (const sort of ['due_date', 'created_at', 'status']) {
      const whole = names(await list(u, `?include_completed=true&sort_by=${sort}`));
      expect(new Set(whole).size).toBe(whole.length);
      for (const [skip, limit] of [
        [0, 1],
        [1, 2],
        [3, 3],
      ]) {
        expect(
          names(await list(u, `?include_completed=true&sort_by=${sort}&skip=${skip}&limit=${limit}`)),
        ).toEqual(whole.slice(skip, skip + limit));
      }
    }
    // the peer sees the organization's goals and their own, not the ceo's other organization
    expect(names(await list(peer, '?include_completed=true'))).toEqual(['e', 'b', 'c']);
    const foreign = await t.req({
      method: 'GET',
      url: `/api/strategic-goals/?organization_id=${orgB}`,
      token: u.token,
    });
    expect(foreign.statusCode).toBe(403);
    const badSort = await t.req({
      method: 'GET',
      url: '/api/strategic-goals/?sort_by=title',
      token: u.token,
    });
    expect(badSort.statusCode).toBe(422);
    const tooMany = await t.req({ method: 'GET', url: '/api/strategic-goals/?limit=500', token: u.token });
    expect(tooMany.statusCode).toBe(422);
    expect(
      (await t.req({ method: 'GET', url: '/api/strategic-goals/', token: waitlisted.token })).statusCode,
    ).toBe(403);
  });

  // PostgreSQL's planner may prefer a sequential scan on tiny tables, so the plan is checked on SQLite.
  it.skipIf(TEST_DB === 'postgres')('the list query is served by indexes', async () => {
    const base = {
      userId: ceo.id,
      orgIds: [orgA, orgB],
      sortBy: 'due_date',
      includeCompleted: false,
      completed: ['done'],
      skip: 0,
      limit: 50,
    } as const;
    for (const opts of [base, { ...base, sortBy: 'status', search: 'x' } as const, { ...base, orgIds: [] }]) {
      expectIndexedPlan(await sqlitePlan(t.ctx.db, listGoalsQuery(t.ctx.db, opts)), 'strategic_goals');
    }
    // The default sort: each visibility branch reads its index in order; SQLite merges them and stops
    // at the page, with no sort.
    for (const [opts, branches] of [
      [base, 3],
      [{ ...base, skip: 50, status: 'in_progress' }, 3],
      [{ ...base, search: 'x' }, 3],
      [{ ...base, organizationId: orgA }, 1],
      [{ ...base, orgIds: [] }, 1],
    ] as const) {
      const tree = await sqlitePlanTree(t.ctx.db, listGoalsQuery(t.ctx.db, opts));
      expectMergedIndexBranches(tree, branches, ['strategic_goals']);
    }
    // The other sorts are held by no index: each branch still keeps only skip + limit rows.
    for (const sortBy of ['status', 'created_at'] as const) {
      const tree = await sqlitePlanTree(t.ctx.db, listGoalsQuery(t.ctx.db, { ...base, sortBy }));
      expect(tree.filter((n) => /^SCAN strategic_goals\b/.test(n.detail))).toEqual([]);
      expect(tree.filter((n) => /^(CO-ROUTINE|MATERIALIZE) b\d+$/.test(n.detail)).length).toBe(3);
    }
  });
});
