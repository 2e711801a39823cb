import type { TGoal } from '@cc/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { apiSuite, createTestApp, type TestApp, type TestUser } from '../../../test/helpers.ts';
import { migrateInverseUnits } from '../../db/migrations/0035_goal_numbers.ts';

const DAY = 86_400_000;
const day = (offset: number) => new Date(Date.now() + offset * DAY).toISOString().slice(0, 10);

/**
 * What a goal's numbers mean in the API (issue 47 §1): KPI direction, the goal's start date and the
 * straight line of expected progress, each KPI's forecast from its check-ins, and the goal's risk.
 */
apiSuite('goal numbers', () => {
  let t: TestApp;
  let ceo: TestUser;
  beforeAll(async () => {
    t = await createTestApp();
    ceo = await t.createUser('ceo');
  });
  afterAll(() => t.close());

  const create = (body: Record<string, unknown>) =>
    t.req({ method: 'POST', url: '/api/strategic-goals/', token: ceo.token, body });
  const make = async (body: Record<string, unknown>): Promise<TGoal> => {
    const res = await create(body);
    expect(res.statusCode, res.body).toBe(201);
    return res.json();
  };
  const get = async (id: string): Promise<TGoal> => {
    const res = await t.req({ method: 'GET', url: `/api/strategic-goals/${id}`, token: ceo.token });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  const listed = async (id: string): Promise<TGoal> => {
    const res = await t.req({ method: 'GET', url: '/api/strategic-goals/?limit=100', token: ceo.token });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as TGoal[]).find((g) => g.id === id) as TGoal;
  };
  const checkin = async (g: TGoal, value: number, date: string) => {
    const res = await t.req({
      method: 'POST',
      url: `/api/strategic-goals/${g.id}/kpis/${g.kpis[0].id}/checkins`,
      token: ceo.token,
      body: { value, date },
    });
    expect(res.statusCode, res.body).toBe(201);
  };

  it('scores a lower_is_better KPI as met when at or under its target, and keeps the direction', async () => {
    const g = await make({
      title: 'Keep customers',
      due_date: day(60),
      kpis: [
        { name: 'Monthly churn', current_value: 3, target_value: 5, unit: '%', direction: 'lower_is_better' },
      ],
    });
    expect([g.progress, g.kpis[0].progress, g.kpis[0].direction]).toEqual([100, 100, 'lower_is_better']);
    expect(g.risk).toEqual({ at_risk: false, reasons: [] });
    expect((await listed(g.id)).kpis[0].direction).toBe('lower_is_better');

    // Above the target: target / current.
    const res = await t.req({
      method: 'PUT',
      url: `/api/strategic-goals/${g.id}`,
      token: ceo.token,
      body: {
        title: g.title,
        due_date: g.due_date,
        kpis: [
          {
            id: g.kpis[0].id,
            name: 'Monthly churn',
            current_value: 8,
            target_value: 4,
            direction: 'lower_is_better',
          },
        ],
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect([res.json().progress, (await listed(g.id)).progress]).toEqual([50, 50]);

    // Left out, a KPI is higher_is_better (the spec's rule).
    const plain = await make({
      title: 'Plain',
      due_date: day(60),
      kpis: [{ name: 'Churn', current_value: 3, target_value: 5 }],
    });
    expect([plain.kpis[0].direction, plain.progress]).toEqual(['higher_is_better', 60]);

    const bad = await create({ title: 'Bad', due_date: day(60), kpis: [{ name: 'X', direction: 'down' }] });
    expect(bad.statusCode).toBe(422);
    expect(JSON.stringify(bad.json().detail)).toContain(
      'Direction must be one of higher_is_better, lower_is_better',
    );
  });

  it('starts a goal the day it is created unless told otherwise; expected progress is the straight line', async () => {
    // Created today, due in three weeks: nothing is expected yet, so nothing is behind.
    const fresh = await make({
      title: 'Three-week push',
      due_date: day(21),
      kpis: [{ name: 'Signed pilots', current_value: 0, target_value: 3 }],
    });
    expect([fresh.start_date, fresh.expected_progress, fresh.risk]).toEqual([
      day(0),
      0,
      { at_risk: false, reasons: [] },
    ]);

    // Moved to a start 30 days ago with 10 to go: 75 % expected, 0 % done.
    const res = await t.req({
      method: 'PUT',
      url: `/api/strategic-goals/${fresh.id}`,
      token: ceo.token,
      body: { title: fresh.title, due_date: day(10), start_date: day(-30) },
    });
    expect(res.statusCode, res.body).toBe(200);
    const moved: TGoal = res.json();
    expect([moved.start_date, moved.expected_progress, moved.risk]).toEqual([
      day(-30),
      75,
      { at_risk: true, reasons: ['0% done, 75% expected by today'] },
    ]);
    expect((await listed(fresh.id)).risk).toEqual(moved.risk);

    // An update without a start date keeps the stored one.
    const kept = await t.req({
      method: 'PUT',
      url: `/api/strategic-goals/${fresh.id}`,
      token: ceo.token,
      body: { title: 'Renamed', due_date: day(10) },
    });
    expect(kept.json().start_date).toBe(day(-30));
  });

  it('refuses a start date after the due date with a detail, leaving the goal as it was', async () => {
    const g = await make({ title: 'Ordered', due_date: day(30), start_date: day(-5) });
    const res = await t.req({
      method: 'PUT',
      url: `/api/strategic-goals/${g.id}`,
      token: ceo.token,
      body: { title: 'Changed', due_date: day(30), start_date: day(31) },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().detail).toEqual([
      {
        loc: ['body', 'start_date'],
        msg: 'Start date must be on or before the due date.',
        type: 'value_error',
      },
    ]);
    expect(await get(g.id)).toMatchObject({ title: 'Ordered', start_date: day(-5) });
    const created = await create({ title: 'Backwards', due_date: day(1), start_date: day(2) });
    expect(created.statusCode).toBe(422);
    const blank = await create({ title: 'Blank', due_date: day(1), start_date: 'soon' });
    expect(blank.statusCode).toBe(422);
  });

  it('forecasts each KPI from two or more check-ins and names the miss as a risk', async () => {
    const g = await make({
      title: 'Grow ARR',
      start_date: day(-20),
      due_date: day(20),
      kpis: [{ name: 'ARR', current_value: 1, target_value: 10, unit: '$M' }],
    });
    // One check-in (the one creating it recorded): no trend to extend.
    expect(g.kpis[0].forecast).toBeNull();

    // +1 every ten days: 1 twenty days ago … 3 today → 5 on the due date, short of 10.
    await checkin(g, 1, day(-20));
    await checkin(g, 2, day(-10));
    await checkin(g, 3, day(0));
    const after = await get(g.id);
    expect(after.kpis[0].forecast).toEqual({ value_at_due: 5, on_track: false });
    expect(after.risk).toEqual({
      at_risk: true,
      reasons: [
        '30% done, 50% expected by today',
        'KPI “ARR” is forecast at 5 $M by the due date, short of its target of 10 $M',
      ],
    });
    expect(await listed(g.id)).toMatchObject({
      risk: after.risk,
      kpis: [{ forecast: after.kpis[0].forecast }],
    });

    // A steeper trend meets the target: on track, and the miss is no longer a reason.
    await checkin(g, 9, day(0));
    const steep = await get(g.id);
    expect(steep.kpis[0].forecast?.on_track).toBe(true);
    expect(steep.risk).toEqual({ at_risk: false, reasons: [] });
  });

  it('names a stale KPI as a risk with the date of its last check-in', async () => {
    const g = await make({
      title: 'NPS up',
      start_date: day(-40),
      due_date: day(40),
      kpis: [{ name: 'NPS', current_value: 50, target_value: 60 }],
    });
    await t.ctx.db.deleteFrom('kpi_checkins').where('kpi_id', '=', g.kpis[0].id).execute();
    await checkin(g, 50, day(-20));
    expect((await get(g.id)).risk).toEqual({
      at_risk: true,
      reasons: [`KPI “NPS” has had no check-in since ${day(-20)}`],
    });
  });

  it('migrates the "(inverse)" unit hack to lower_is_better', async () => {
    const g = await make({
      title: 'Old churn',
      due_date: day(60),
      kpis: [{ name: 'Monthly churn', current_value: 3, target_value: 5, unit: '% (inverse)' }],
    });
    expect(g.progress).toBe(60);
    await migrateInverseUnits(t.ctx.db);
    const migrated = await get(g.id);
    expect(migrated.kpis[0]).toMatchObject({ unit: '%', direction: 'lower_is_better', progress: 100 });
    expect((await listed(g.id)).progress).toBe(100);
  });
});
