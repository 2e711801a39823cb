import { SignJWT } from 'jose';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { apiSuite, createTestApp, PASSWORD, type TestApp } from '../../../test/helpers.ts';

apiSuite('auth: sign-in, sign-up, sessions', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ LOGIN_MAX_FAILURES: '3' });
  });
  afterAll(() => t.close());

  it('signs in with form-encoded credentials and returns a bearer token for /me', async () => {
    const u = await t.createUser('user', { email: 'Mixed.Case@Test.example' });
    const res = await t.req({
      method: 'POST',
      url: '/api/auth/token',
      form: { username: 'mixed.case@test.example', password: PASSWORD },
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.token_type).toBe('bearer');
    const me = await t.req({ method: 'GET', url: '/api/users/me', token: body.access_token });
    expect(me.statusCode).toBe(200);
    expect(me.json().id).toBe(u.id);
  });

  it('gives a 24-hour session, or 30 days with remember me', async () => {
    const u = await t.createUser('user');
    const day = await t.req({
      method: 'POST',
      url: '/api/auth/token',
      form: { username: u.email, password: PASSWORD },
    });
    const month = await t.req({
      method: 'POST',
      url: '/api/auth/token',
      form: { username: u.email, password: PASSWORD, remember_me: 'true' },
    });
    const hours = (r: typeof day) => (Date.parse(r.json().expires_at) - Date.now()) / 3600_000;
    expect(hours(day)).toBeGreaterThan(23.9);
    expect(hours(day)).toBeLessThanOrEqual(24);
    expect(hours(month)).toBeGreaterThan(30 * 24 - 0.1);
  });

  it('refuses a wrong password and an unknown e-mail with the same 401 detail', async () => {
    const u = await t.createUser('user');
    const wrong = await t.req({
      method: 'POST',
      url: '/api/auth/token',
      form: { username: u.email, password: 'nope-nope' },
    });
    const unknown = await t.req({
      method: 'POST',
      url: '/api/auth/token',
      form: { username: 'ghost@test.example', password: 'x' },
    });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ detail: 'Incorrect email or password' });
    expect(unknown.json()).toEqual({ detail: 'Incorrect email or password' });
  });

  it('answers 422 with field details when credentials are missing', async () => {
    const res = await t.req({ method: 'POST', url: '/api/auth/token', form: { username: '' } });
    expect(res.statusCode).toBe(422);
    const locs = res.json().detail.map((d: { loc: string[] }) => d.loc.join('.'));
    expect(locs).toEqual(expect.arrayContaining(['body.username', 'body.password']));
  });

  it('locks an account after repeated failures (429) even with the right password', async () => {
    const u = await t.createUser('user');
    for (let i = 0; i < 3; i++) {
      await t.req({
        method: 'POST',
        url: '/api/auth/token',
        form: { username: u.email, password: 'bad-password' },
      });
    }
    const res = await t.req({
      method: 'POST',
      url: '/api/auth/token',
      form: { username: u.email, password: PASSWORD },
    });
    expect(res.statusCode).toBe(429);
    expect(res.json().detail).toMatch(/Too many failed sign-in attempts/);
  });

  it('logout revokes the session: the same token then gets 401', async () => {
    const u = await t.createUser('user');
    const out = await t.req({ method: 'POST', url: '/api/auth/logout', token: u.token });
    expect(out.statusCode).toBe(204);
    const me = await t.req({ method: 'GET', url: '/api/users/me', token: u.token });
    expect(me.statusCode).toBe(401);
    expect(me.json().detail).toMatch(/session/i);
  });

  it('rejects forged tokens: wrong secret, alg none, and an unknown session', async () => {
    const u = await t.createUser('user');
    const wrongKey = await new SignJWT({ sid: 'x' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(u.id)
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('another-secret-another-secret-another'));
    const header = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
    const payload = Buffer.from(JSON.stringify({ sub: u.id, sid: 'x', exp: 9999999999 })).toString(
      'base64url',
    );
    const unknownSession = await new SignJWT({ sid: 'no-such-session' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(u.id)
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode(t.config.jwtSecret));
    for (const token of [wrongKey, `${header}.${payload}.`, unknownSession, 'garbage']) {
      const res = await t.req({ method: 'GET', url: '/api/users/me', token });
      expect(res.statusCode).toBe(401);
      expect(typeof res.json().detail).toBe('string');
    }
    expect((await t.req({ method: 'GET', url: '/api/users/me' })).statusCode).toBe(401);
  });

  it('sign-up always creates a waitlisted user, ignoring user_level and organization_id', async () => {
    const ceo = await t.createUser('ceo');
    const orgId = await t.createOrg(ceo);
    const res = await t.req({
      method: 'POST',
      url: '/api/users/register',
      body: {
        email: 'Climber@Test.example',
        password: 'secret1',
        first_name: 'Cli',
        last_name: 'Mber',
        user_level: 'admin',
        organization_id: orgId,
      },
    });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.user_level).toBe('waitlisted');
    expect(body.email).toBe('climber@test.example');
    expect(body.organization_id).toBeNull();
    expect(body.profile.name).toBe('Cli Mber');
    const row = await t.ctx.db
      .selectFrom('users')
      .select('user_level')
      .where('id', '=', body.id)
      .executeTakeFirstOrThrow();
    expect(row.user_level).toBe('waitlisted');
    expect(JSON.stringify(body)).not.toMatch(/password/);
  });

  it('sign-up validates with the spec messages and refuses a duplicate e-mail', async () => {
    const short = await t.req({
      method: 'POST',
      url: '/api/users/register',
      body: { email: 'short@test.example', password: '12345', first_name: 'A', last_name: 'B' },
    });
    expect(short.statusCode).toBe(422);
    expect(short.json().detail[0]).toMatchObject({
      loc: ['body', 'password'],
      msg: 'Password must be at least 6 characters long.',
    });

    const missing = await t.req({
      method: 'POST',
      url: '/api/users/register',
      body: { email: 'x@test.example', password: 'secret1' },
    });
    expect(missing.statusCode).toBe(422);
    expect(missing.json().detail.map((d: { msg: string }) => d.msg)).toContain('Please fill in all fields.');

    const badEmail = await t.req({
      method: 'POST',
      url: '/api/users/register',
      body: { email: 'not-an-email', password: 'secret1', first_name: 'A', last_name: 'B' },
    });
    expect(badEmail.statusCode).toBe(422);
    expect(badEmail.json().detail[0].msg).toBe('Invalid email address');

    const body = { email: 'twice@test.example', password: 'secret1', first_name: 'A', last_name: 'B' };
    expect((await t.req({ method: 'POST', url: '/api/users/register', body })).statusCode).toBe(201);
    const dup = await t.req({
      method: 'POST',
      url: '/api/users/register',
      body: { ...body, email: 'TWICE@test.example' },
    });
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toEqual({ detail: 'An account with this email already exists.' });
  });

  it('a waitlisted user may read and edit /me but nothing else', async () => {
    const res = await t.req({
      method: 'POST',
      url: '/api/users/register',
      body: { email: 'waiting@test.example', password: 'secret1', first_name: 'Wai', last_name: 'Ting' },
    });
    expect(res.statusCode).toBe(201);
    const token = await t.login('waiting@test.example', 'secret1');
    expect((await t.req({ method: 'GET', url: '/api/users/me', token })).json().first_name).toBe('Wai');
    const patch = await t.req({ method: 'PATCH', url: '/api/users/me', token, body: { role: 'Analyst' } });
    expect(patch.statusCode).toBe(200);
    const orgs = await t.req({ method: 'GET', url: '/api/organizations', token });
    expect(orgs.statusCode).toBe(403);
    expect(orgs.json().detail).toMatch(/waitlist/);
  });

  it('an invitation stays an invitation at sign-up: no membership, no primary organization', async () => {
    const ceo = await t.createUser('ceo');
    const orgId = await t.createOrg(ceo, 'Invite Org');
    const inv = await t.req({
      method: 'POST',
      url: `/api/organizations/${orgId}/users`,
      token: ceo.token,
      body: { email: 'newcomer@test.example', org_access_level: 'manager' },
    });
    expect(inv.statusCode).toBe(201);
    expect(inv.json()).toMatchObject({ is_invite: true, user_id: null });
    const reg = await t.req({
      method: 'POST',
      url: '/api/users/register',
      body: { email: 'newcomer@test.example', password: 'secret1', first_name: 'New', last_name: 'Comer' },
    });
    expect(reg.json()).toMatchObject({
      organization_id: null,
      organization_name: null,
      user_level: 'waitlisted',
    });
    const members = (
      await t.req({ method: 'GET', url: `/api/organizations/${orgId}/users`, token: ceo.token })
    ).json();
    expect(members.find((m: { email: string }) => m.email === 'newcomer@test.example')).toMatchObject({
      is_invite: true,
      user_id: null,
      first_name: null,
    });
  });
});

apiSuite('auth: per-IP rate limit', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT_AUTH_MAX: '3' });
  });
  afterAll(() => t.close());

  it('answers 429 with a detail once an IP exceeds the sign-in limit', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      const r = await t.req({
        method: 'POST',
        url: '/api/auth/token',
        form: { username: `n${i}@test.example`, password: 'x' },
      });
      statuses.push(r.statusCode);
      if (r.statusCode === 429) expect(typeof r.json().detail).toBe('string');
    }
    expect(statuses.slice(0, 3)).toEqual([401, 401, 401]);
    expect(statuses.slice(3)).toEqual([429, 429]);
  });
});
