import { afterAll, beforeAll, expect, it } from 'vitest';
import { apiSuite, createTestApp, type TestApp, type TestUser } from '../../../test/helpers.ts';
import { type RadicaleServer, startRadicale } from '../../../test/radicale.ts';
import {
  addConnection,
  ics,
  LOOPBACK_ALLOWED,
  syncedAfter,
  waitForConnection,
} from './connections-test-kit.ts';

const DAY = 86_400_000;
const stamp = (d: Date) => `${d.toISOString().replace(/[-:]/g, '').slice(0, 15)}Z`;
const event = (uid: string, title: string, at: Date, extra: string[] = []) =>
  ics(
    [
      'BEGIN:VEVENT',
      `UID:${uid}`,
      'DTSTAMP:20260101T000000Z',
      `DTSTART:${stamp(at)}`,
      'DURATION:PT1H',
      `SUMMARY:${title}`,
      ...extra,
      'END:VEVENT',
    ].join('\r\n'),
  );

apiSuite('connections: a CalDAV account (a real Radicale)', () => {
  let t: TestApp;
  let owner: TestUser;
  let radicale: RadicaleServer;
  let calendar: string;
  const soon = new Date(Math.floor(Date.now() / DAY) * DAY + 2 * DAY + 9 * 3600e3);

  beforeAll(async () => {
    radicale = await startRadicale();
    calendar = await radicale.makeCalendar('work');
    t = await createTestApp(LOOPBACK_ALLOWED);
    owner = await t.createUser('user');
  });
  afterAll(async () => {
    await t.close();
    await radicale.stop();
  });

  const titles = async (id: string) =>
    (
      await t.ctx.db
        .selectFrom('calendar_events')
        .select(['uid', 'title', 'starts_at'])
        .where('connection_id', '=', id)
        .orderBy('starts_at')
        .orderBy('uid')
        .execute()
    ).map((e) => `${e.uid}:${e.title}`);

  it('imports every calendar, then only what changed since its sync-token; wrong credentials keep what was imported', async () => {
    await radicale.putEvent(calendar, 'keep', event('keep', 'Strategy review', soon));
    await radicale.putEvent(calendar, 'edit', event('edit', 'Budget call', new Date(soon.getTime() + DAY)));
    await radicale.putEvent(calendar, 'drop', event('drop', 'Standup', soon, ['RRULE:FREQ=DAILY;COUNT=3']));
    let since = new Date().toISOString();
    const c = await addConnection(t, owner, {
      kind: 'caldav',
      name: 'Radicale',
      url: radicale.url,
      username: radicale.user,
      password: radicale.password,
    });
    expect(c).toMatchObject({ url: radicale.url, username: radicale.user, has_password: true });
    expect(JSON.stringify(c)).not.toContain(radicale.password);
    await waitForConnection(t, owner, c.id, syncedAfter(since));
    expect(await titles(c.id)).toEqual([
      'drop:Standup',
      'keep:Strategy review',
      'drop:Standup',
      'edit:Budget call',
      'drop:Standup',
    ]);
    const first = await t.ctx.db
      .selectFrom('connections')
      .select('sync_state')
      .where('id', '=', c.id)
      .executeTakeFirstOrThrow();
    expect(first.sync_state).toContain('"tokens"');

    // An unchanged event removed here only: an incremental sync does not bring it back, a full read would.
    await t.ctx.db
      .deleteFrom('calendar_events')
      .where('connection_id', '=', c.id)
      .where('uid', '=', 'keep')
      .execute();
    await radicale.putEvent(
      calendar,
      'edit',
      event('edit', 'Budget call (moved)', new Date(soon.getTime() + 2 * DAY)),
    );
    await radicale.deleteEvent(calendar, 'drop');
    await radicale.putEvent(
      calendar,
      'new',
      event('new', 'Hiring panel', new Date(soon.getTime() + 3 * DAY)),
    );
    since = new Date().toISOString();
    expect(
      (await t.req({ method: 'POST', url: `/api/connections/${c.id}/sync`, token: owner.token })).statusCode,
    ).toBe(202);
    await waitForConnection(t, owner, c.id, syncedAfter(since));
    expect(await titles(c.id)).toEqual(['edit:Budget call (moved)', 'new:Hiring panel']);

    const tested = await t.req({ method: 'POST', url: `/api/connections/${c.id}/test`, token: owner.token });
    expect(tested.json()).toEqual({
      ok: true,
      detail: `Signed in to ${new URL(radicale.url).host}: 1 calendar found.`,
    });

    since = new Date().toISOString();
    const wrong = await t.req({
      method: 'PATCH',
      url: `/api/connections/${c.id}`,
      token: owner.token,
      body: { password: 'wrong-password' },
    });
    expect(wrong.statusCode).toBe(200);
    const failed = await waitForConnection(t, owner, c.id, syncedAfter(since));
    expect(failed).toMatchObject({
      status: 'error',
      last_error: `${new URL(radicale.url).host} refused the user name or password.`,
    });
    expect(JSON.stringify(failed)).not.toContain('wrong-password');
    expect(await titles(c.id)).toEqual(['edit:Budget call (moved)', 'new:Hiring panel']);
  });

  it('reads a calendar whole again when the server refuses its sync-token', async () => {
    let since = new Date().toISOString();
    const c = await addConnection(t, owner, {
      kind: 'caldav',
      name: 'Radicale again',
      url: radicale.url,
      username: radicale.user,
      password: radicale.password,
    });
    await waitForConnection(t, owner, c.id, syncedAfter(since));
    const before = await titles(c.id);
    expect(before.length).toBeGreaterThan(0);
    // Forgotten here, and a token the server never gave: only a whole read brings the events back.
    await t.ctx.db.deleteFrom('calendar_events').where('connection_id', '=', c.id).execute();
    await t.ctx.db
      .updateTable('connections')
      .set({ sync_state: JSON.stringify({ tokens: { [calendar]: 'http://radicale.org/ns/sync/unknown' } }) })
      .where('id', '=', c.id)
      .execute();
    since = new Date().toISOString();
    await t.req({ method: 'POST', url: `/api/connections/${c.id}/sync`, token: owner.token });
    expect((await waitForConnection(t, owner, c.id, syncedAfter(since))).status).toBe('connected');
    expect(await titles(c.id)).toEqual(before);
  });
});
