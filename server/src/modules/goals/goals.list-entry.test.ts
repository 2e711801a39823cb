import { afterAll, afterEach, beforeAll, expect, it, vi } from 'vitest';
import { apiSuite, createTestApp, type TestApp, type TestUser } from '../../../test/helpers.ts';
import { expectListsFresh, freshGoalPage } from '../../../test/fresh-lists.ts';
import { rendererOf } from './goals.list-entry.ts';

interface Kpi {
  id: string;
  name: string;
  current_value: number;
  last_checkin_date: string | null;
  stale: boolean;
  trend: { date: string; value: number }[];
}
interface Goal {
  id: string;
  title: string;
  organization_name: string | null;
  kpis: Kpi[];
  progress: number;
  expected_progress: number;
  risk: { at_risk: boolean; reasons: string[] };
  can_edit: boolean;
  can_delete: boolean;
}

const DAY = 86_400_000;
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const day = (offset: number) => dayOf(Date.now() + offset * DAY);

/**
 * Stored goal list entries (strategic_goals.list_json, migration 0028): written with the goal,
 * forgotten by the database when anything they show changes, outdated by the day a KPI turns stale,
 * completed per read with the caller's rights, never shown stale. (After each case every list page is
 * compared with its rows presented afresh: test/fresh-lists.ts.)
 */
apiSuite('goal list entries', () => {
  let t: TestApp;
  let owner: TestUser;
  let manager: TestUser;
  let member: TestUser;
  let org: string;

  beforeAll(async () => {
    t = await createTestApp();
    owner = await t.createUser('ceo');
    manager = await t.createUser('user');
    member = await t.createUser('user');
    org = await t.createOrg(owner, 'Goals Co');
    await t.addToOrg(owner, org, manager, 'manager');
    await t.addToOrg(owner, org, member, 'user');
  });
  // After each case's writes (and with the real clock back), every page equals its rows presented
  // afresh: a stale entry, or one held past the day a KPI turned stale, would differ.
  afterEach(async () => {
    vi.useRealTimers();
    await expectListsFresh(t, [owner, manager, member], { include_completed: 'true' });
  });
  afterAll(() => t.close());

  const stored = async (id: string) =>
    t.ctx.db
      .selectFrom('strategic_goals')
      .select(['list_json', 'list_from', 'list_until'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
  const listed = async (u: TestUser, id: string): Promise<Goal> => {
    const res = await t.req({ method: 'GET', url: '/api/strategic-goals/?limit=100', token: u.token });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    const found = (res.json() as Goal[]).find((g) => g.id === id);
    expect(found, `goal ${id} in the list`).toBeDefined();
    return found as Goal;
  };
  const make = async (kpis: Record<string, unknown>[], dates: Record<string, string> = {}): Promise<Goal> => {
    const res = await t.req({
      method: 'POST',
      url: '/api/strategic-goals/',
      token: owner.token,
      body: { title: 'Grow revenue', due_date: '2027-06-30', organization_id: org, kpis, ...dates },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json();
  };
  /** Waits (up to 2 s) for the background renderer to store the entry again. */
  const renderedAgain = async (id: string) => {
    for (let i = 0; i < 100; i++) {
      const row = await stored(id);
      if (row.list_json !== null && row.list_until !== day(0) && row.list_from === day(0)) return row;
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error(`the list entry of goal ${id} was not rendered again`);
  };

  it('stores the entry with the goal, holding until its KPI turns stale, and adds rights per caller', async () => {
    // Past its due date: the expected progress stays 100, so only the KPI's staleness moves with the day.
    const g = await make([{ name: 'ARR', current_value: 5, target_value: 10 }], { due_date: day(-30) });
    const row = await stored(g.id);
    const { can_edit: _e, can_delete: _d, ...fields } = g;
    expect(JSON.parse(row.list_json as string)).toEqual(fields);
    // Checked in today: stale in fourteen days (contract: KPI_STALE_DAYS).
    expect([row.list_from, row.list_until]).toEqual([day(0), day(14)]);
    expect(await listed(owner, g.id)).toEqual(g);
    const asManager = await listed(manager, g.id);
    expect([asManager.can_edit, asManager.can_delete]).toEqual([true, true]);
    const asMember = await listed(member, g.id);
    expect([asMember.can_edit, asMember.can_delete]).toEqual([false, false]);
    // No KPI, or none checked in, and past the due date: no day changes the entry.
    expect((await stored((await make([], { due_date: day(-30) })).id)).list_until).toBeNull();
  });

  it('holds until the expected progress moves along its line, then shows the new figure and risk', async () => {
    // Ten days in, ten to go, half done: 50 % expected, on the line. Each day moves the line 5 points.
    const g = await make([{ name: 'Pilots', current_value: 5, target_value: 10 }], {
      start_date: day(-10),
      due_date: day(10),
    });
    expect([g.progress, g.expected_progress, g.risk]).toEqual([50, 50, { at_risk: false, reasons: [] }]);
    const before = await stored(g.id);
    expect([before.list_from, before.list_until]).toEqual([day(0), day(1)]);
    expect((await listed(owner, g.id)).expected_progress).toBe(50);
    // Three days on, only the clock moved: 65 % expected, 50 % done, more than 10 points behind.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 3 * DAY + 60_000);
    const token = await t.login(owner.email);
    const later = await listed({ ...owner, token }, g.id);
    expect([later.expected_progress, later.risk]).toEqual([
      65,
      { at_risk: true, reasons: ['50% done, 65% expected by today'] },
    ]);
    const again = await renderedAgain(g.id);
    expect(JSON.parse(again.list_json as string).expected_progress).toBe(65);
  });

  it('shows a check-in, a KPI edit and an organization rename at once', async () => {
    const g = await make([{ name: 'Logos', current_value: 10, target_value: 100 }]);
    const checkin = await t.req({
      method: 'POST',
      url: `/api/strategic-goals/${g.id}/kpis/${g.kpis[0].id}/checkins`,
      token: owner.token,
      body: { value: 40 },
    });
    expect(checkin.statusCode, checkin.body).toBe(201);
    expect(JSON.parse((await stored(g.id)).list_json as string).kpis[0].current_value).toBe(40);
    expect((await listed(member, g.id)).progress).toBe(40);

    const edited = await t.req({
      method: 'PUT',
      url: `/api/strategic-goals/${g.id}`,
      token: owner.token,
      body: {
        title: 'Grow logos',
        due_date: '2027-06-30',
        kpis: [{ id: g.kpis[0].id, name: 'Logos won', current_value: 40, target_value: 50 }],
      },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    const afterEdit = await listed(member, g.id);
    expect([afterEdit.title, afterEdit.kpis[0].name, afterEdit.progress]).toEqual([
      'Grow logos',
      'Logos won',
      80,
    ]);

    // A change made outside the goal services (another table's write) is forgotten by the database.
    const renamed = await t.req({
      method: 'PATCH',
      url: `/api/organizations/${org}`,
      token: owner.token,
      body: { name: 'Goals Group' },
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect((await stored(g.id)).list_json).toBeNull();
    expect((await listed(member, g.id)).organization_name).toBe('Goals Group');
    expect(JSON.parse((await renderedAgain(g.id)).list_json as string).organization_name).toBe('Goals Group');

    await t.ctx.db
      .updateTable('kpi_checkins')
      .set({ value: 45 })
      .where('kpi_id', '=', g.kpis[0].id)
      .execute();
    expect((await stored(g.id)).list_json).toBeNull();
  });

  it('shows a KPI stale from the day it turns stale, though its entry was rendered before', async () => {
    const g = await make([{ name: 'NPS', current_value: 30, target_value: 60 }], { due_date: day(-30) });
    expect(g.kpis[0].stale).toBe(false);
    const before = await stored(g.id);
    expect(before.list_until).toBe(day(14));
    // Read once today, so the read cache holds this page too.
    expect((await listed(owner, g.id)).kpis[0].stale).toBe(false);
    // Fourteen days on (only the clock moves): the stored entry and the cached page say not stale,
    // the list must not.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 14 * DAY + 60_000);
    const token = await t.login(owner.email);
    const later = await listed({ ...owner, token }, g.id);
    expect(later.kpis[0]).toMatchObject({ stale: true, last_checkin_date: before.list_from });
    // The whole page, that day, equals its rows presented afresh that day.
    const page = await t.req({ method: 'GET', url: '/api/strategic-goals/?limit=100', token });
    const fresh = await freshGoalPage(t.ctx, { ...owner, token }, { limit: '100' });
    expect(page.json()).toEqual(JSON.parse(JSON.stringify(fresh)));
    const again = await renderedAgain(g.id);
    expect([again.list_from, again.list_until]).toEqual([day(0), null]);
    expect(JSON.parse(again.list_json as string).kpis[0].stale).toBe(true);
  });

  it('renders entries written without one, for the list and by the catch-up', async () => {
    const g = await make([{ name: 'Churn', current_value: 2, target_value: 1 }]);
    const forget = () =>
      t.ctx.db
        .updateTable('strategic_goals')
        .set({ list_json: null, list_from: null, list_until: null })
        .where('id', '=', g.id)
        .execute();
    await forget();
    expect((await listed(member, g.id)).kpis[0].name).toBe('Churn');
    await renderedAgain(g.id);
    await forget();
    expect(await rendererOf(t.ctx).catchUp()).toBeGreaterThanOrEqual(1);
    expect(JSON.parse((await stored(g.id)).list_json as string).kpis).toHaveLength(1);
  });
});
