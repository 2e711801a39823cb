import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiSuite, createTestApp, PASSWORD, type TestApp, type TestUser } from '../../../test/helpers.ts';
import { closedPort, startTestSmtp, unfoldMail } from '../../../test/smtp.ts';

const KEYS = '/api/users/me/api-keys';
const body = (extra: Record<string, unknown> = {}) => ({ name: 'CLI', scopes: ['read:tasks'], ...extra });

/**
 * Issue 46 row 3: a key outlives neither a password change nor "sign out everywhere", a stolen session
 * alone cannot mint one, and the owner hears of every new key.
 */
apiSuite('API keys: who may make them and what ends them', () => {
  let mail: Awaited<ReturnType<typeof startTestSmtp>>;
  let t: TestApp;
  beforeAll(async () => {
    mail = await startTestSmtp();
    t = await createTestApp({
      SMTP_URL: mail.url,
      SMTP_FROM: 'CC <security@cc.example>',
      PUBLIC_URL: 'https://cc.example',
    });
  });
  afterAll(async () => {
    await t.close();
    await mail.close();
  });

  /** The session behind a token, signed in `minutes` ago (what a session stolen a while back looks like). */
  const ageSessions = async (u: TestUser, minutes: number) => {
    await t.ctx.db
      .updateTable('sessions')
      .set({ created_at: new Date(Date.now() - minutes * 60_000).toISOString() })
      .where('user_id', '=', u.id)
      .execute();
  };
  const liveKeys = async (u: TestUser) =>
    Number(
      (
        await t.ctx.db
          .selectFrom('api_keys')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('user_id', '=', u.id)
          .where('revoked_at', 'is', null)
          .executeTakeFirstOrThrow()
      ).n,
    );
  const makeKey = async (u: TestUser, token = u.token) => {
    const res = await t.req({ method: 'POST', url: KEYS, token, body: body({ current_password: PASSWORD }) });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().secret as string;
  };
  const keyWorks = async (secret: string) =>
    (await t.req({ method: 'GET', url: '/api/tasks/', token: secret })).statusCode;

  describe('a session signed in more than 10 minutes ago', () => {
    it('cannot make a key without the current password, nor with a wrong one; the right one makes it', async () => {
      const u = await t.createUser('user');
      await ageSessions(u, 11);
      const bare = await t.req({ method: 'POST', url: KEYS, token: u.token, body: body() });
      expect(bare.statusCode).toBe(422);
      expect(bare.json().detail).toEqual([
        {
          loc: ['body', 'current_password'],
          msg: 'Enter your current password to create an API key (you signed in more than 10 minutes ago).',
          type: 'password_required',
        },
      ]);
      const wrong = await t.req({
        method: 'POST',
        url: KEYS,
        token: u.token,
        body: body({ current_password: 'not-my-password' }),
      });
      expect(wrong.statusCode).toBe(422);
      expect(wrong.json().detail[0]).toMatchObject({
        loc: ['body', 'current_password'],
        msg: 'Current password is incorrect.',
      });
      expect(await liveKeys(u)).toBe(0);
      expect(mail.received.filter((m) => m.to.includes(u.email.toLowerCase()))).toHaveLength(0);
      const right = await t.req({
        method: 'POST',
        url: KEYS,
        token: u.token,
        body: body({ current_password: PASSWORD }),
      });
      expect(right.statusCode).toBe(201);
      expect(await liveKeys(u)).toBe(1);
    });

    it('a fresh sign-in may make one without the password; a wrong password is refused even then', async () => {
      const u = await t.createUser('user');
      const res = await t.req({ method: 'POST', url: KEYS, token: u.token, body: body() });
      expect(res.statusCode, res.body).toBe(201);
      const wrong = await t.req({
        method: 'POST',
        url: KEYS,
        token: u.token,
        body: body({ current_password: 'not-my-password' }),
      });
      expect(wrong.statusCode).toBe(422);
      expect(await liveKeys(u)).toBe(1);
    });

    it('guessing passwords through key creation locks like a password change (429)', async () => {
      const u = await t.createUser('user');
      const guesses = t.config.limits.currentPasswordMaxFailures;
      for (let i = 0; i < guesses; i++) {
        const r = await t.req({
          method: 'POST',
          url: KEYS,
          token: u.token,
          body: body({ current_password: `guess-${i}` }),
        });
        expect(r.statusCode).toBe(422);
      }
      const locked = await t.req({
        method: 'POST',
        url: KEYS,
        token: u.token,
        body: body({ current_password: PASSWORD }),
      });
      expect(locked.statusCode).toBe(429);
      expect(await liveKeys(u)).toBe(0);
    });
  });

  it('a password change revokes every key of the account; this session stays signed in', async () => {
    const u = await t.createUser('user');
    const other = await t.login(u.email);
    const k1 = await makeKey(u);
    const k2 = await makeKey(u);
    expect(await keyWorks(k1)).toBe(200);
    const change = await t.req({
      method: 'PATCH',
      url: '/api/users/me',
      token: u.token,
      body: { current_password: PASSWORD, password: 'a-brand-new-pass-1' },
    });
    expect(change.statusCode, change.body).toBe(200);
    expect(await keyWorks(k1)).toBe(401);
    expect(await keyWorks(k2)).toBe(401);
    expect(await liveKeys(u)).toBe(0);
    expect((await t.req({ method: 'GET', url: '/api/users/me', token: u.token })).statusCode).toBe(200);
    expect((await t.req({ method: 'GET', url: '/api/users/me', token: other })).statusCode).toBe(401);
  });

  it('a password set by an administrator revokes the keys too', async () => {
    const admin = await t.createUser('admin');
    const u = await t.createUser('user');
    const k = await makeKey(u);
    const set = await t.req({
      method: 'PATCH',
      url: `/api/users/${u.id}`,
      token: admin.token,
      body: { password: 'set-by-the-admin-1' },
    });
    expect(set.statusCode, set.body).toBe(200);
    expect(await keyWorks(k)).toBe(401);
    expect(await liveKeys(u)).toBe(0);
  });

  it('sign out everywhere ends every session, this one too, and revokes every key; others keep theirs', async () => {
    const u = await t.createUser('user');
    const bystander = await t.createUser('user');
    const theirs = await makeKey(bystander);
    const other = await t.login(u.email);
    const k = await makeKey(u);
    const res = await t.req({ method: 'POST', url: '/api/auth/logout-everywhere', token: u.token });
    expect(res.statusCode).toBe(204);
    expect(await keyWorks(k)).toBe(401);
    for (const token of [u.token, other]) {
      expect((await t.req({ method: 'GET', url: '/api/users/me', token })).statusCode).toBe(401);
    }
    expect(await liveKeys(u)).toBe(0);
    expect(await keyWorks(theirs)).toBe(200);
    const ledger = await t.ctx.db
      .selectFrom('activity')
      .select('summary')
      .where('actor_user_id', '=', u.id)
      .where('action', '=', 'auth.sign_out_everywhere')
      .execute();
    expect(ledger.map((r) => r.summary)).toEqual([
      'Signed out everywhere (every session ended, 1 API key revoked)',
    ]);
  });

  it('a key cannot sign its owner out everywhere', async () => {
    const u = await t.createUser('user');
    const k = await makeKey(u);
    const res = await t.req({ method: 'POST', url: '/api/auth/logout-everywhere', token: k });
    expect(res.statusCode).toBe(403);
    expect((await t.req({ method: 'GET', url: '/api/users/me', token: u.token })).statusCode).toBe(200);
  });

  it('e-mails the owner when a key is made: its name, prefix and scopes, never the secret', async () => {
    const u = await t.createUser('user');
    const res = await t.req({
      method: 'POST',
      url: KEYS,
      token: u.token,
      body: { name: 'Desktop assistant', scopes: ['read:goals', 'write:notes'] },
    });
    expect(res.statusCode).toBe(201);
    const created = res.json() as { prefix: string; secret: string };
    const mine = mail.received.filter((m) => m.to.includes(u.email.toLowerCase()));
    expect(mine).toHaveLength(1);
    const text = unfoldMail(mine[0].raw);
    expect(mine[0].from).toBe('security@cc.example');
    expect(text).toContain('Subject: A new API key was created for your account');
    expect(text).toContain('Name: Desktop assistant');
    expect(text).toContain(`Starts with: ${created.prefix}`);
    expect(text).toContain('Scopes: read:goals, write:notes');
    expect(text).toContain('https://cc.example/app/profile');
    expect(text).not.toContain(created.secret.slice(created.prefix.length + 1));
  });

  it('without a working SMTP server the key is still made', async () => {
    const down = await createTestApp({ SMTP_URL: `smtp://127.0.0.1:${await closedPort()}` });
    try {
      const u = await down.createUser('user');
      const res = await down.req({ method: 'POST', url: KEYS, token: u.token, body: body() });
      expect(res.statusCode).toBe(201);
      expect(
        (await down.req({ method: 'GET', url: '/api/tasks/', token: res.json().secret })).statusCode,
      ).toBe(200);
    } finally {
      await down.close();
    }
  });
});
