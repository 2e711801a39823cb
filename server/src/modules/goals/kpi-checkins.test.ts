import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { apiSuite, createTestApp, type TestApp, type TestUser } from '../../../test/helpers.ts';
import { expectListsFresh } from '../../../test/fresh-lists.ts';
import { checkinsVisibleSince } from './kpi-checkins.service.ts';

interface Kpi {
  id: string;
  current_value: number;
  last_checkin_date: string | null;
  stale: boolean;
  trend: { date: string; value: number }[];
}
interface Goal {
  id: string;
  updated_at: string;
  kpis: Kpi[];
}
interface Checkin {
  id: string;
  kpi_id: string;
  value: number;
  date: string;
  note: string | null;
  user_id: string | null;
  created_at: string;
}

/** The UTC date `days` days from today. */
const day = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

apiSuite('KPI check-ins', () => {
  let t: TestApp;
  let ceo: TestUser; // owns org A
  let member: TestUser; // plain member of A: reads, may not record
  let manager: TestUser; // manager of A: may record
  let outsider: TestUser; // another tenant
  let orgA: string;

  beforeAll(async () => {
    t = await createTestApp();
    ceo = await t.createUser('ceo');
    member = await t.createUser('user');
    manager = await t.createUser('user');
    outsider = await t.createUser('ceo');
    orgA = await t.createOrg(ceo, 'KPI Co');
    await t.createOrg(outsider, 'Elsewhere');
    await t.addToOrg(ceo, orgA, member, 'user');
    await t.addToOrg(ceo, orgA, manager, 'manager');
  });
  afterAll(() => t.close());
  // After each case's writes, every list page equals its rows presented afresh (stored entries).
  afterEach(() => expectListsFresh(t, [ceo, member, manager, outsider], { include_completed: 'true' }));

  const makeGoal = async (kpis: Record<string, unknown>[], org: string | null = orgA): Promise<Goal> => {
    const res = await t.req({
      method: 'POST',
      url: '/api/strategic-goals/',
      token: ceo.token,
      body: { title: 'Grow', due_date: '2027-06-30', organization_id: org, kpis },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json();
  };
  const getGoal = async (id: string, u = ceo): Promise<Goal> =>
    (await t.req({ method: 'GET', url: `/api/strategic-goals/${id}`, token: u.token })).json();
  const url = (g: Goal, k = 0) => `/api/strategic-goals/${g.id}/kpis/${g.kpis[k].id}/checkins`;
  const post = (u: TestUser, path: string, body: Record<string, unknown>) =>
    t.req({ method: 'POST', url: path, token: u.token, body });
  const list = async (u: TestUser, path: string): Promise<Checkin[]> => {
    const res = await t.req({ method: 'GET', url: path, token: u.token });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };

  it('a new KPI is its first check-in (today, by the creator); the goal shows its trend', async () => {
    const g = await makeGoal([{ name: 'ARR', current_value: 5, target_value: 10 }]);
    const rows = await list(ceo, url(g));
    expect(rows.map((r) => [r.value, r.date, r.user_id, r.note])).toEqual([[5, day(0), ceo.id, null]]);
    expect(g.kpis[0]).toMatchObject({
      last_checkin_date: day(0),
      stale: false,
      trend: [{ date: day(0), value: 5 }],
    });
  });

  it('POST defaults the date to today, sets current_value, and a second one that day replaces it', async () => {
    const g = await makeGoal([{ name: 'ARR', current_value: 1, target_value: 10 }]);
    const first = await post(ceo, url(g), { value: 3, note: 'Q3 close' });
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json()).toMatchObject({ kpi_id: g.kpis[0].id, value: 3, date: day(0), note: 'Q3 close' });
    const second = await post(manager, url(g), { value: 4 });
    expect(second.statusCode).toBe(201);
    expect(second.json()).toMatchObject({ value: 4, date: day(0), note: null, user_id: manager.id });
    const rows = await list(member, url(g));
    expect(rows).toHaveLength(1); // the creation's check-in of today was replaced too
    expect(rows[0]).toMatchObject({ value: 4, user_id: manager.id });
    const after = await getGoal(g.id);
    expect(after.kpis[0].current_value).toBe(4);
    expect(after.kpis[0].trend).toEqual([{ date: day(0), value: 4 }]);
    expect(after.updated_at > g.updated_at).toBe(true); // the goal's version moved on
  });

  it('a back-dated check-in joins the trend in date order without changing current_value', async () => {
    const g = await makeGoal([{ name: 'Logos', current_value: 30, target_value: 100 }]);
    expect((await post(ceo, url(g), { value: 10, date: day(-20) })).statusCode).toBe(201);
    expect((await post(ceo, url(g), { value: 20, date: day(-10) })).statusCode).toBe(201);
    const got = await getGoal(g.id);
    expect(got.kpis[0].current_value).toBe(30);
    expect(got.kpis[0].trend.map((p) => [p.date, p.value])).toEqual([
      [day(-20), 10],
      [day(-10), 20],
      [day(0), 30],
    ]);
    expect((await list(ceo, url(g))).map((r) => r.value)).toEqual([10, 20, 30]);
    const page = await list(ceo, `${url(g)}?skip=1&limit=1`);
    expect(page.map((r) => r.value)).toEqual([20]);
  });

  it('the goal dialog records a check-in only for KPIs whose value changed; kept KPIs keep their history', async () => {
    const g = await makeGoal([
      { name: 'A', current_value: 1, target_value: 10 },
      { name: 'B', current_value: 2, target_value: 10 },
    ]);
    await post(ceo, url(g, 1), { value: 7, date: day(-3) });
    const res = await t.req({
      method: 'PUT',
      url: `/api/strategic-goals/${g.id}`,
      token: ceo.token,
      body: {
        title: 'Grow',
        due_date: '2027-06-30',
        kpis: [
          { id: g.kpis[0].id, name: 'A', current_value: 6, target_value: 10 },
          { id: g.kpis[1].id, name: 'B renamed', current_value: 2, target_value: 10 },
        ],
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((await list(ceo, url(g, 0))).map((r) => [r.date, r.value])).toEqual([[day(0), 6]]);
    // B's value did not change: its history (the back-dated 7, today's 2) is untouched.
    expect((await list(ceo, url(g, 1))).map((r) => [r.date, r.value])).toEqual([
      [day(-3), 7],
      [day(0), 2],
    ]);
  });

  it('marks a KPI stale after 14 days without a check-in', async () => {
    const g = await makeGoal([
      { name: 'Old', current_value: 1, target_value: 10 },
      { name: 'Recent', current_value: 1, target_value: 10 },
    ]);
    // Replace today's first check-ins by older ones: the latest is then the back-dated one.
    await t.ctx.db
      .deleteFrom('kpi_checkins')
      .where('date', '=', day(0))
      .where('kpi_id', 'in', [g.kpis[0].id, g.kpis[1].id])
      .execute();
    await post(ceo, url(g, 0), { value: 1, date: day(-14) });
    await post(ceo, url(g, 1), { value: 1, date: day(-13) });
    const got = await getGoal(g.id);
    expect(got.kpis.map((k) => [k.last_checkin_date, k.stale])).toEqual([
      [day(-14), true],
      [day(-13), false],
    ]);
  });

  it('follows the goal: members read, editors record, outsiders get 404, a KPI of another goal is 404', async () => {
    const g = await makeGoal([{ name: 'ARR', current_value: 1, target_value: 10 }]);
    const other = await makeGoal([{ name: 'Other', current_value: 1, target_value: 10 }]);
    expect(await list(member, url(g))).toHaveLength(1);
    const byMember = await post(member, url(g), { value: 9 });
    expect(byMember.statusCode).toBe(403);
    expect(byMember.json().detail).toBe('You cannot edit this goal.');
    for (const res of [
      await t.req({ method: 'GET', url: url(g), token: outsider.token }),
      await post(outsider, url(g), { value: 9 }),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.json().detail).toBe('Goal not found');
    }
    const mixed = `/api/strategic-goals/${g.id}/kpis/${other.kpis[0].id}/checkins`;
    for (const res of [
      await t.req({ method: 'GET', url: mixed, token: ceo.token }),
      await post(ceo, mixed, { value: 9 }),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.json().detail).toBe('KPI not found');
    }
    expect((await getGoal(g.id)).kpis[0].current_value).toBe(1); // nothing was recorded
    expect((await getGoal(other.id)).kpis[0].current_value).toBe(1);
  });

  it('validates value, date and note (422 with the field)', async () => {
    const g = await makeGoal([{ name: 'ARR', current_value: 1, target_value: 10 }]);
    for (const [body, field] of [
      [{}, 'value'],
      [{ value: 'lots' }, 'value'],
      [{ value: 1, date: '2026-02-30' }, 'date'],
      [{ value: 1, date: 'yesterday' }, 'date'],
      [{ value: 1, note: 'x'.repeat(1001) }, 'note'],
      [{ value: 1, kpi_id: 'x' }, null],
    ] as const) {
      const res = await post(ceo, url(g), body);
      expect(res.statusCode, JSON.stringify(body)).toBe(422);
      if (field) expect(res.json().detail[0].loc).toEqual(['body', field]);
    }
  });

  it('checkinsVisibleSince: only goals the viewer may see, with the value each KPI moved from', async () => {
    const g = await makeGoal([{ name: 'Pipeline', current_value: 100, target_value: 500 }]);
    await t.ctx.db.deleteFrom('kpi_checkins').where('kpi_id', '=', g.kpis[0].id).execute();
    await post(ceo, url(g), { value: 100, date: day(-9) });
    await post(ceo, url(g), { value: 150, date: day(-5) });
    await post(ceo, url(g), { value: 180, date: day(-1) });
    const mine = await makeGoal([{ name: 'Private', current_value: 1, target_value: 2 }], null);

    const asMember = await checkinsVisibleSince(t.ctx, { id: member.id, orgIds: [orgA] }, day(-6));
    const ofG = asMember.filter((c) => c.goal_id === g.id);
    expect(ofG.map((c) => [c.date, c.value, c.previous_value, c.kpi_name, c.goal_title])).toEqual([
      [day(-5), 150, 100, 'Pipeline', 'Grow'],
      [day(-1), 180, 100, 'Pipeline', 'Grow'],
    ]);
    expect(asMember.some((c) => c.goal_id === mine.id)).toBe(false); // the ceo's goal outside the org
    const asCeo = await checkinsVisibleSince(t.ctx, { id: ceo.id, orgIds: [orgA] }, day(-6));
    expect(asCeo.some((c) => c.goal_id === mine.id)).toBe(true);
    const asOutsider = await checkinsVisibleSince(t.ctx, { id: outsider.id, orgIds: [] }, day(-30));
    expect(asOutsider).toEqual([]);
  });
});
