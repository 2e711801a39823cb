import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiSuite, createTestApp, type TestApp, type TestUser } from '../../../test/helpers.ts';
import { type BuiltApp, buildApp } from '../../app.ts';
import { briefSchedulerOf } from './briefs.scheduler.ts';
import { latestSlot } from './briefs.slots.ts';

const DAY = 86_400_000;
/** Midnight UTC `days` days from now (the schedule is saved "now", so its slots lie ahead). */
const utcMidnight = (days: number) => {
  const d = new Date(Date.now() + days * DAY);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
};

describe('brief slots in the user’s time zone', () => {
  const every = { enabled: true, weekdays: [1, 2, 3, 4, 5, 6, 7], time: '07:30' };
  it('follows daylight saving: 07:30 in Berlin is 06:30 UTC in winter and 05:30 UTC in summer', () => {
    const tz = { ...every, timezone: 'Europe/Berlin' };
    expect(latestSlot(tz, new Date('2026-01-14T12:00:00Z'), null)).toBe('2026-01-14T06:30:00.000Z');
    expect(latestSlot(tz, new Date('2026-07-14T12:00:00Z'), null)).toBe('2026-07-14T05:30:00.000Z');
    // Before today's time: yesterday's slot.
    expect(latestSlot(tz, new Date('2026-07-14T05:00:00Z'), null)).toBe('2026-07-13T05:30:00.000Z');
  });
  it('keeps to the chosen weekdays (Monday = 1) and never reaches before the schedule was saved', () => {
    const mondays = { ...every, weekdays: [1], timezone: 'America/New_York' };
    // Thursday 2026-06-18: the latest Monday 07:30 in New York (EDT, UTC-4) is 2026-06-15 11:30 UTC.
    expect(latestSlot(mondays, new Date('2026-06-18T12:00:00Z'), null)).toBe('2026-06-15T11:30:00.000Z');
    expect(latestSlot(mondays, new Date('2026-06-18T12:00:00Z'), '2026-06-16T00:00:00.000Z')).toBeNull();
  });
});

apiSuite('brief schedule (PATCH /api/users/me) and the scheduler', () => {
  let t: TestApp;
  let second: BuiltApp;
  let ceo: TestUser;
  let quiet: TestUser;
  let orgId: string;

  beforeAll(async () => {
    t = await createTestApp({ BRIEF_SCHEDULER_POLL_MS: '0' });
    // A second instance on the same database (as two servers behind a load balancer).
    second = await buildApp(t.config, { serveWeb: false });
    await second.app.ready();
    ceo = await t.createUser('ceo');
    quiet = await t.createUser('user');
    orgId = await t.createOrg(ceo);
  });
  afterAll(async () => {
    await second.app.close();
    await t.close();
  });

  const patch = (u: TestUser, body: unknown) =>
    t.req({ method: 'PATCH', url: '/api/users/me', token: u.token, body });
  const scheduledCount = async (u: TestUser) =>
    Number(
      (
        await t.ctx.db
          .selectFrom('briefs')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('user_id', '=', u.id)
          .where('trigger', '=', 'scheduled')
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('stores a valid schedule and shows it on the user; null until saved', async () => {
    const me = await t.req({ method: 'GET', url: '/api/users/me', token: ceo.token });
    expect(me.json().brief_schedule).toBeNull();
    const schedule = {
      enabled: true,
      weekdays: [1, 2, 3, 4, 5, 6, 7],
      time: '07:30',
      timezone: 'Asia/Tokyo',
    };
    const res = await patch(ceo, { brief_schedule: schedule });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().brief_schedule).toEqual(schedule);
    const again = await t.req({ method: 'GET', url: '/api/users/me', token: ceo.token });
    expect(again.json().brief_schedule).toEqual(schedule);
  });

  it.each([
    ['weekday 0', { weekdays: [0] }],
    ['weekday 8', { weekdays: [8] }],
    ['no weekdays', { weekdays: [] }],
    ['a repeated weekday', { weekdays: [1, 1] }],
    ['time 7:30', { time: '7:30' }],
    ['time 24:00', { time: '24:00' }],
    ['an unknown time zone', { timezone: 'Mars/Olympus' }],
    ['an offset instead of a zone', { timezone: '+02:00' }],
    ['a missing field', { enabled: undefined }],
    ['an unknown field', { hour: 7 }],
  ])('refuses %s with 422', async (_label, change) => {
    const body = { enabled: true, weekdays: [1], time: '07:30', timezone: 'UTC', ...change };
    const res = await patch(quiet, { brief_schedule: body });
    expect(res.statusCode, res.body).toBe(422);
    expect(Array.isArray(res.json().detail)).toBe(true);
  });

  it('produces each slot once across two instances, and one catch-up after downtime', async () => {
    const a = briefSchedulerOf(t.ctx);
    const b = briefSchedulerOf(second.ctx);
    expect(a && b && a !== b).toBe(true);
    if (!a || !b) return;
    // 07:30 in Tokyo (UTC+9, no daylight saving) is 22:30 UTC the day before.
    const slot = utcMidnight(2) - 90 * 60_000;
    const produced = await Promise.all([a.tick(new Date(slot + 60_000)), b.tick(new Date(slot + 60_000))]);
    expect(produced[0] + produced[1]).toBe(1);
    expect(await scheduledCount(ceo)).toBe(1);
    // Later the same day: the slot is done.
    expect(await a.tick(new Date(slot + 3 * 3_600_000))).toBe(0);
    expect(await b.tick(new Date(slot + 3 * 3_600_000))).toBe(0);

    // Both instances down for three days and a half: one catch-up brief, not three.
    const back = new Date(slot + 3 * DAY + 12 * 3_600_000);
    const after = await Promise.all([b.tick(back), a.tick(back)]);
    expect(after[0] + after[1]).toBe(1);
    expect(await scheduledCount(ceo)).toBe(2);
    // A scheduled brief has no request: its words are metered to the brief's user and organization.
    const metered = await t.ctx.db
      .selectFrom('usage_events')
      .select(['user_id', 'organization_id'])
      .where('feature', '=', 'brief')
      .execute();
    expect(metered).toEqual([
      { user_id: ceo.id, organization_id: orgId },
      { user_id: ceo.id, organization_id: orgId },
    ]);
    const slots = await t.ctx.db
      .selectFrom('brief_slots')
      .select('slot_at')
      .where('user_id', '=', ceo.id)
      .execute();
    expect(slots.map((s) => s.slot_at).sort()).toEqual([
      new Date(slot).toISOString(),
      new Date(slot + 3 * DAY).toISOString(),
    ]);
    // The catch-up brief covers the time since the previous one.
    const list = await t.req({ method: 'GET', url: '/api/briefs/', token: ceo.token });
    const [latest, first] = list.json();
    expect(latest.trigger).toBe('scheduled');
    expect(latest.period_start).toBe(first.period_end);
  });

  it('produces nothing for a schedule that is off, or before it was saved', async () => {
    const res = await patch(quiet, {
      brief_schedule: { enabled: false, weekdays: [1, 2, 3, 4, 5, 6, 7], time: '07:30', timezone: 'UTC' },
    });
    expect(res.statusCode).toBe(200);
    const scheduler = briefSchedulerOf(t.ctx);
    await scheduler?.tick(new Date(utcMidnight(4) + 8 * 3_600_000));
    expect(await scheduledCount(quiet)).toBe(0);
    // Turned on now: this morning's 00:00 UTC slot is before it was saved, so nothing until tomorrow.
    await patch(quiet, {
      brief_schedule: { enabled: true, weekdays: [1, 2, 3, 4, 5, 6, 7], time: '00:00', timezone: 'UTC' },
    });
    await scheduler?.tick(new Date());
    expect(await scheduledCount(quiet)).toBe(0);
    await scheduler?.tick(new Date(utcMidnight(1) + 60_000));
    expect(await scheduledCount(quiet)).toBe(1);
  });
});
