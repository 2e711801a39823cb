import { MAX_CONNECTIONS_PER_PERSON } from '@cc/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { apiSuite, createTestApp, type TestApp, type TestUser } from '../../../test/helpers.ts';
import {
  addConnection,
  type FileServer,
  ics,
  LOOPBACK_ALLOWED,
  nextBerlinClockChange,
  serveFile,
  syncedAfter,
  waitForConnection,
  ymd,
} from './connections-test-kit.ts';

const DAY = 86_400_000;
const BERLIN_RULES = [
  'BEGIN:VTIMEZONE',
  'TZID:Custom/Berlin',
  'BEGIN:DAYLIGHT',
  'TZOFFSETFROM:+0100',
  'TZOFFSETTO:+0200',
  'DTSTART:19700329T020000',
  'RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU',
  'END:DAYLIGHT',
  'BEGIN:STANDARD',
  'TZOFFSETFROM:+0200',
  'TZOFFSETTO:+0100',
  'DTSTART:19701025T030000',
  'RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU',
  'END:STANDARD',
  'END:VTIMEZONE',
].join('\r\n');

/** A weekly 09:00 meeting in `tzid` from `start` (5 times), the 4th struck out by EXDATE. */
const weekly = (uid: string, tzid: string, start: Date, exdate: Date) =>
  [
    'BEGIN:VEVENT',
    `UID:${uid}`,
    'DTSTAMP:20260101T000000Z',
    `DTSTART;TZID=${tzid}:${ymd(start)}T090000`,
    `DTEND;TZID=${tzid}:${ymd(start)}T100000`,
    'RRULE:FREQ=WEEKLY;COUNT=5',
    `EXDATE;TZID=${tzid}:${ymd(exdate)}T090000`,
    'SUMMARY:Board sync',
    'ORGANIZER;CN=Ada:mailto:ADA@example.com',
    'ATTENDEE;CN=Bob Stone:mailto:bob@example.com',
    'END:VEVENT',
  ].join('\r\n');

const single = (uid: string, title: string, at: Date) =>
  [
    'BEGIN:VEVENT',
    `UID:${uid}`,
    'DTSTAMP:20260101T000000Z',
    `DTSTART:${at.toISOString().replace(/[-:]/g, '').slice(0, 15)}Z`,
    'DURATION:PT30M',
    `SUMMARY:${title}`,
    'END:VEVENT',
  ].join('\r\n');

apiSuite('connections: an ICS address', () => {
  let t: TestApp;
  let strict: TestApp;
  let owner: TestUser;
  let feed: FileServer;

  beforeAll(async () => {
    t = await createTestApp({ ...LOOPBACK_ALLOWED, CALENDAR_PAST_DAYS: '400', CALENDAR_FUTURE_DAYS: '400' });
    strict = await createTestApp();
    owner = await t.createUser('user');
    feed = await serveFile();
  });
  afterAll(async () => {
    await t.close();
    await strict.close();
    await feed.close();
  });

  const events = (connectionId: string) =>
    t.ctx.db
      .selectFrom('calendar_events')
      .selectAll()
      .where('connection_id', '=', connectionId)
      .orderBy('starts_at')
      .orderBy('uid')
      .execute();

  it('is stored with its address sealed and never returned; a field another kind has is refused', async () => {
    const c = await addConnection(t, owner, {
      kind: 'ics',
      name: 'Private',
      url: `${feed.url}?token=s3cret-feed`,
    });
    expect(c).toMatchObject({ kind: 'ics', url: null, host: new URL(feed.url).host, has_password: false });
    expect(JSON.stringify(c)).not.toContain('s3cret-feed');
    const row = await t.ctx.db
      .selectFrom('connections')
      .selectAll()
      .where('id', '=', c.id)
      .executeTakeFirstOrThrow();
    expect(row.secret_sealed).toMatch(/^v1\./);
    expect(JSON.stringify(row)).not.toContain('s3cret-feed');

    const before = await t.ctx.db.selectFrom('connections').select('id').execute();
    const foreign = await t.req({
      method: 'POST',
      url: '/api/connections/',
      token: owner.token,
      body: { kind: 'ics', name: 'X', url: feed.url, password: 'p' },
    });
    expect(foreign.statusCode).toBe(422);
    expect(JSON.stringify(foreign.json().detail)).toContain('has no password');
    const missing = await t.req({
      method: 'POST',
      url: '/api/connections/',
      token: owner.token,
      body: { kind: 'imap', name: 'X' },
    });
    expect(missing.statusCode).toBe(422);
    const patch = await t.req({
      method: 'PATCH',
      url: `/api/connections/${c.id}`,
      token: owner.token,
      body: { port: 993 },
    });
    expect(patch.statusCode).toBe(422);
    expect(await t.ctx.db.selectFrom('connections').select('id').execute()).toHaveLength(before.length);
  });

  it('expands an RRULE with EXDATE across a daylight-saving change to the right local times (named and defined zones)', async () => {
    const change = nextBerlinClockChange(new Date());
    const start = new Date(change.getTime() - 13 * DAY); // the Monday two weeks before the change
    const struck = new Date(start.getTime() + 3 * 7 * DAY);
    feed.set(
      ics(
        BERLIN_RULES,
        weekly('named', 'Europe/Berlin', start, struck),
        weekly('defined', 'Custom/Berlin', start, struck),
      ),
    );
    const since = new Date().toISOString();
    const c = await addConnection(t, owner, { kind: 'ics', name: 'Board', url: feed.url });
    expect((await waitForConnection(t, owner, c.id, syncedAfter(since))).status).toBe('connected');

    // 09:00 in Berlin is 07:00Z in summer time (+2) and 08:00Z in winter time (+1).
    const springForward = change.getUTCMonth() === 2;
    const at = (week: number, after: boolean) => {
      const d = new Date(start.getTime() + week * 7 * DAY);
      d.setUTCHours(after === springForward ? 7 : 8);
      return d.toISOString();
    };
    const expected = [at(0, false), at(1, false), at(2, true), at(4, true)];
    const rows = await events(c.id);
    for (const uid of ['named', 'defined']) {
      const mine = rows.filter((r) => r.uid === uid);
      expect(
        mine.map((r) => r.starts_at),
        uid,
      ).toEqual(expected);
      expect(mine.map((r) => Date.parse(r.ends_at) - Date.parse(r.starts_at))).toEqual([
        3600e3, 3600e3, 3600e3, 3600e3,
      ]);
    }
    const first = rows.find((r) => r.uid === 'named');
    expect(first).toMatchObject({
      title: 'Board sync',
      organizer: 'ada@example.com',
      time_zone: 'Europe/Berlin',
    });
    expect(JSON.parse(first?.attendees ?? '[]')).toEqual([{ email: 'bob@example.com', name: 'Bob Stone' }]);
  });

  it('syncs now on request; a malformed file or an unreachable server gives a clear error and keeps what was imported', async () => {
    const soon = new Date(Date.now() + 2 * DAY);
    feed.set(ics(single('one', 'Investor call', soon)));
    let since = new Date().toISOString();
    const c = await addConnection(t, owner, { kind: 'ics', name: 'Work', url: feed.url });
    await waitForConnection(t, owner, c.id, syncedAfter(since));
    expect((await events(c.id)).map((e) => e.title)).toEqual(['Investor call']);

    feed.set(
      ics(single('one', 'Investor call', soon), single('two', 'Team lunch', new Date(soon.getTime() + DAY))),
    );
    since = new Date().toISOString();
    const now = await t.req({ method: 'POST', url: `/api/connections/${c.id}/sync`, token: owner.token });
    expect(now.statusCode).toBe(202);
    await waitForConnection(t, owner, c.id, syncedAfter(since));
    expect((await events(c.id)).map((e) => e.title)).toEqual(['Investor call', 'Team lunch']);

    feed.set('<html>Not a calendar</html>');
    since = new Date().toISOString();
    await t.req({ method: 'POST', url: `/api/connections/${c.id}/sync`, token: owner.token });
    const broken = await waitForConnection(t, owner, c.id, syncedAfter(since));
    expect(broken).toMatchObject({
      status: 'error',
      last_error: 'The calendar is not a valid iCalendar file.',
    });
    expect((await events(c.id)).map((e) => e.title)).toEqual(['Investor call', 'Team lunch']);
    const tested = await t.req({ method: 'POST', url: `/api/connections/${c.id}/test`, token: owner.token });
    expect(tested.json()).toEqual({ ok: false, detail: 'The calendar is not a valid iCalendar file.' });

    const gone = await serveFile();
    await gone.close();
    since = new Date().toISOString();
    await t.req({
      method: 'PATCH',
      url: `/api/connections/${c.id}`,
      token: owner.token,
      body: { url: gone.url },
    });
    const unreachable = await waitForConnection(t, owner, c.id, syncedAfter(since));
    expect(unreachable.status).toBe('error');
    expect(unreachable.last_error).toBe(
      `Could not reach ${new URL(gone.url).host}: the server did not answer.`,
    );
    expect(await events(c.id)).toHaveLength(2);
    // Backed off: the failures since the last success are counted and the next attempt waits for them.
    const row = await t.ctx.db
      .selectFrom('connections')
      .select(['failures', 'next_sync_at', 'updated_at'])
      .where('id', '=', c.id)
      .executeTakeFirstOrThrow();
    expect(row.failures).toBe(1);
    expect(Date.parse(row.next_sync_at) - Date.parse(row.updated_at)).toBeGreaterThanOrEqual(59_000);
  });

  it('answers Test with what it found, without importing', async () => {
    feed.set(
      ics(single('t1', 'A', new Date(Date.now() + DAY)), single('t2', 'B', new Date(Date.now() + 2 * DAY))),
    );
    const c = await addConnection(t, owner, { kind: 'ics', name: 'Probe', url: feed.url });
    const res = await t.req({ method: 'POST', url: `/api/connections/${c.id}/test`, token: owner.token });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      ok: true,
      detail: 'The calendar address works: 2 entries in the coming weeks.',
    });
  });

  it('disconnecting deletes what the connection imported, with one ledger entry', async () => {
    feed.set(ics(single('d1', 'Keep me?', new Date(Date.now() + DAY))));
    const since = new Date().toISOString();
    const c = await addConnection(t, owner, { kind: 'ics', name: 'Gone', url: feed.url });
    await waitForConnection(t, owner, c.id, syncedAfter(since));
    expect(await events(c.id)).toHaveLength(1);

    const res = await t.req({ method: 'DELETE', url: `/api/connections/${c.id}`, token: owner.token });
    expect(res.statusCode).toBe(204);
    expect(await events(c.id)).toHaveLength(0);
    const list = (await t.req({ method: 'GET', url: '/api/connections/', token: owner.token })).json();
    expect(list.map((x: { id: string }) => x.id)).not.toContain(c.id);
    const ledger = await t.ctx.db
      .selectFrom('activity')
      .selectAll()
      .where('entity_id', '=', c.id)
      .where('action', '=', 'connection.deleted')
      .execute();
    expect(ledger).toHaveLength(1);
    expect(ledger[0].summary).toContain('1 calendar entries and 0 mails removed');
  });

  it('refuses a loopback address the operator did not allow, saying how to allow it, and sends it nothing', async () => {
    const probe = await serveFile();
    probe.set(ics());
    const user = await strict.createUser('user');
    const since = new Date().toISOString();
    const c = await addConnection(strict, user, { kind: 'ics', name: 'Local', url: probe.url });
    const failed = await waitForConnection(strict, user, c.id, syncedAfter(since));
    expect(failed.status).toBe('error');
    expect(failed.last_error).toContain('private or reserved address');
    expect(failed.last_error).toContain('AI_HTTP_ALLOWLIST');
    expect(probe.hits()).toBe(0);
    await probe.close();
  });

  it('refuses a connection beyond the most one person may have, storing nothing', async () => {
    const busy = await t.createUser('user');
    for (let i = 0; i < MAX_CONNECTIONS_PER_PERSON; i++) {
      await addConnection(t, busy, { kind: 'ics', name: `Calendar ${i}`, url: `${feed.url}?n=${i}` });
    }
    const res = await t.req({
      method: 'POST',
      url: '/api/connections/',
      token: busy.token,
      body: { kind: 'ics', name: 'One more', url: feed.url },
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().detail).toBe(
      `You have ${MAX_CONNECTIONS_PER_PERSON} connections, the most one person may have: disconnect one first.`,
    );
    const rows = await t.ctx.db
      .selectFrom('connections')
      .select('id')
      .where('user_id', '=', busy.id)
      .execute();
    expect(rows).toHaveLength(MAX_CONNECTIONS_PER_PERSON);
  });
});
