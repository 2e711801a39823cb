import { afterAll, beforeAll, expect, it } from 'vitest';
import { apiSuite, createTestApp, type TestApp, type TestUser } from '../../test/helpers.ts';
import type { TableClock } from '../db/table-clock.ts';

/**
 * The read cache of sessions (with their user) and of a caller's memberships, through real HTTP: a
 * request served from memory reads nothing again, and after each kind of change the very next request
 * answers as a fresh read would (a value is used only while no table it was read from changed).
 */
apiSuite('read cache: sessions and memberships', () => {
  let t: TestApp;
  let admin: TestUser;
  let ceo: TestUser;
  let clock: TableClock;

  beforeAll(async () => {
    t = await createTestApp();
    if (!t.ctx.changes) throw new Error('the test app runs with the read cache on');
    clock = t.ctx.changes;
    admin = await t.createUser('admin');
    ceo = await t.createUser('ceo');
  });
  afterAll(() => t.close());

  /** The tables `run` reads from the database (the requests run one at a time). */
  const tablesRead = async (run: () => Promise<unknown>) => {
    const read = new Set<string>();
    clock.onRead = (sql) => {
      for (const m of sql.matchAll(/\b(?:from|join)\s+"?(\w+)"?/g)) read.add(m[1]);
    };
    try {
      await run();
    } finally {
      clock.onRead = null;
    }
    return read;
  };
  const status = async (u: TestUser, method: 'GET' | 'PATCH', url: string, body?: unknown) =>
    (await t.req({ method, url, token: u.token, body })).statusCode;

  it('a session is read once, then answers like a fresh read after a level change, a rename and a deletion', async () => {
    const user = await t.createUser('admin');
    expect(await status(user, 'GET', '/api/users/')).toBe(200);
    // Served from memory: the session (and its user) is not read again.
    expect(await tablesRead(() => status(user, 'GET', '/api/users/'))).not.toContain('sessions');

    const patch = (body: unknown) => status(admin, 'PATCH', `/api/users/${user.id}`, body);
    // A new level ends the account's sessions: the kept one is refused at once.
    expect(await patch({ user_level: 'user' })).toBe(200);
    expect(await status(user, 'GET', '/api/users/')).toBe(401);
    user.token = await t.login(user.email);
    expect(await status(user, 'GET', '/api/users/')).toBe(403);
    expect(await tablesRead(() => status(user, 'GET', '/api/users/'))).not.toContain('sessions');

    expect(await patch({ first_name: 'Renamed' })).toBe(200);
    const me = await t.req({ method: 'GET', url: '/api/users/me', token: user.token });
    expect(me.json()).toMatchObject({ id: user.id, user_level: 'user', first_name: 'Renamed' });

    expect(
      (await t.req({ method: 'DELETE', url: `/api/users/${user.id}`, token: admin.token })).statusCode,
    ).toBe(204);
    expect(await status(user, 'GET', '/api/tasks/')).toBe(401);
  });

  it('memberships are read with the session, reused, and a new access level applies to the next request', async () => {
    const member = await t.createUser('user');
    const org = await t.createOrg(ceo, 'Levels Co');
    await t.addToOrg(ceo, org, member, 'user');
    const invite = async (email: string) =>
      (
        await t.req({
          method: 'POST',
          url: `/api/organizations/${org}/users`,
          token: member.token,
          body: { email, org_access_level: 'user' },
        })
      ).statusCode;
    const manages = async () =>
      (await t.req({ method: 'GET', url: '/api/organizations/', token: member.token })).json()[0].can_manage;
    const members = () => status(member, 'GET', `/api/organizations/${org}/users`);

    expect(await members()).toBe(200);
    // The session and the memberships read with it come from memory (the page itself lists members).
    expect(await tablesRead(members)).not.toContain('sessions');
    expect(await invite('first@invitee.example')).toBe(403);
    expect(await manages()).toBe(false);

    const promoted = await t.req({
      method: 'PATCH',
      url: `/api/organizations/${org}/users/${member.id}`,
      token: ceo.token,
      body: { org_access_level: 'admin' },
    });
    expect(promoted.statusCode, promoted.body).toBe(200);
    expect(await manages()).toBe(true);
    expect(await invite('second@invitee.example')).toBe(201);

    const removed = await t.req({
      method: 'DELETE',
      url: `/api/organizations/${org}/users/${member.id}`,
      token: ceo.token,
    });
    expect(removed.statusCode).toBe(204);
    expect(await members()).toBe(404);
  });
});
