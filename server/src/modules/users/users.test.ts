import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiSuite, createTestApp, PASSWORD, type TestApp } from '../../../test/helpers.ts';

apiSuite('users: /me', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('updates only the fields sent and trims objectives', async () => {
    const u = await t.createUser('user');
    const res = await t.req({
      method: 'PATCH',
      url: '/api/users/me',
      token: u.token,
      body: { role: 'COO', objectives: ['  Grow ARR ', '', 'Hire CFO'], behavior_notes: 'Direct' },
    });
    expect(res.statusCode).toBe(200);
    const me = (await t.req({ method: 'GET', url: '/api/users/me', token: u.token })).json();
    expect(me.role).toBe('COO');
    expect(me.profile).toMatchObject({
      role: 'COO',
      objectives: ['Grow ARR', 'Hire CFO'],
      behavior_notes: 'Direct',
      knowledge_summary: null,
    });
    expect(me.first_name).toMatch(/^User/);
  });

  it('never lets a user change their own level (403) and refuses unknown fields (422)', async () => {
    const u = await t.createUser('user');
    const promote = await t.req({
      method: 'PATCH',
      url: '/api/users/me',
      token: u.token,
      body: { user_level: 'admin' },
    });
    expect(promote.statusCode).toBe(403);
    expect(promote.json().detail).toBe('You cannot change your own user level.');
    const sneaky = await t.req({
      method: 'PATCH',
      url: '/api/users/me',
      token: u.token,
      body: { email: 'x@y.z', is_admin: true },
    });
    expect(sneaky.statusCode).toBe(422);
    const row = await t.ctx.db
      .selectFrom('users')
      .select(['user_level', 'email'])
      .where('id', '=', u.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ user_level: 'user', email: u.email });
  });

  it('custom_prompts are admin only: hidden from and not writable by others', async () => {
    const u = await t.createUser('ceo');
    const me = (await t.req({ method: 'GET', url: '/api/users/me', token: u.token })).json();
    expect(me.profile).not.toHaveProperty('custom_prompts');
    const w = await t.req({
      method: 'PATCH',
      url: '/api/users/me',
      token: u.token,
      body: { custom_prompts: { tone: 'x' } },
    });
    expect(w.statusCode).toBe(403);
    const admin = await t.createUser('admin');
    const ok = await t.req({
      method: 'PATCH',
      url: '/api/users/me',
      token: admin.token,
      body: { custom_prompts: { tone: 'crisp' } },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().profile.custom_prompts).toEqual({ tone: 'crisp' });
  });

  it('password change needs the current password and 8+ characters', async () => {
    const u = await t.createUser('user');
    const missing = await t.req({
      method: 'PATCH',
      url: '/api/users/me',
      token: u.token,
      body: { password: 'new-password-1' },
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().detail).toBe('Current password is required.');
    const wrong = await t.req({
      method: 'PATCH',
      url: '/api/users/me',
      token: u.token,
      body: { password: 'new-password-1', current_password: 'wrong-one' },
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().detail).toBe('Current password is incorrect.');
    const short = await t.req({
      method: 'PATCH',
      url: '/api/users/me',
      token: u.token,
      body: { password: 'short', current_password: PASSWORD },
    });
    expect(short.statusCode).toBe(422);
    expect(short.json().detail[0].msg).toBe('Password must be at least 8 characters');
    // nothing changed so far
    expect(await t.login(u.email)).toBeTruthy();
  });

  it('a password change keeps this session, revokes the others, and the new password works', async () => {
    const u = await t.createUser('user');
    const other = await t.login(u.email);
    const res = await t.req({
      method: 'PATCH',
      url: '/api/users/me',
      token: u.token,
      body: { password: 'brand-new-pass', current_password: PASSWORD },
    });
    expect(res.statusCode).toBe(200);
    expect((await t.req({ method: 'GET', url: '/api/users/me', token: u.token })).statusCode).toBe(200);
    expect((await t.req({ method: 'GET', url: '/api/users/me', token: other })).statusCode).toBe(401);
    const old = await t.req({
      method: 'POST',
      url: '/api/auth/token',
      form: { username: u.email, password: PASSWORD },
    });
    expect(old.statusCode).toBe(401);
    expect(await t.login(u.email, 'brand-new-pass')).toBeTruthy();
  });

  it('refuses an oversized body with 413 and malformed JSON with 400', async () => {
    const u = await t.createUser('user');
    const big = await t.req({
      method: 'PATCH',
      url: '/api/users/me',
      token: u.token,
      body: { knowledge_summary: 'x'.repeat(1_100_000) },
    });
    expect(big.statusCode).toBe(413);
    expect(typeof big.json().detail).toBe('string');
    const bad = await t.app.inject({
      method: 'PATCH',
      url: '/api/users/me',
      headers: { authorization: `Bearer ${u.token}`, 'content-type': 'application/json' },
      payload: '{"role": ',
    });
    expect(bad.statusCode).toBe(400);
    expect(typeof bad.json().detail).toBe('string');
  });
});

apiSuite('users: admin management', () => {
  let t: TestApp;
  let admin: Awaited<ReturnType<TestApp['createUser']>>;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.createUser('admin', { first_name: 'Root' });
  });
  afterAll(() => t.close());

  it('creates users waitlisted by default and refuses duplicates', async () => {
    const res = await t.req({
      method: 'POST',
      url: '/api/users/',
      token: admin.token,
      body: { email: 'made@test.example', password: 'long-enough', first_name: 'Made' },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      user_level: 'waitlisted',
      email: 'made@test.example',
      first_name: 'Made',
    });
    const dup = await t.req({
      method: 'POST',
      url: '/api/users/',
      token: admin.token,
      body: { email: 'made@test.example', password: 'long-enough' },
    });
    expect(dup.statusCode).toBe(409);
    const noPw = await t.req({
      method: 'POST',
      url: '/api/users/',
      token: admin.token,
      body: { email: 'nopw@test.example' },
    });
    expect(noPw.statusCode).toBe(422);
    expect(noPw.json().detail[0].loc).toEqual(['body', 'password']);
  });

  it('creates a user in an organization, which makes them a member', async () => {
    const orgId = await t.createOrg(admin, 'Acme');
    const res = await t.req({
      method: 'POST',
      url: '/api/users/',
      token: admin.token,
      body: {
        email: 'member@test.example',
        password: 'long-enough',
        user_level: 'user',
        organization_id: orgId,
      },
    });
    expect(res.json()).toMatchObject({
      organization_id: orgId,
      organization_name: 'Acme',
      user_level: 'user',
    });
    const members = (
      await t.req({ method: 'GET', url: `/api/organizations/${orgId}/users`, token: admin.token })
    ).json();
    expect(members.map((m: { email: string }) => m.email)).toContain('member@test.example');
    const unknownOrg = await t.req({
      method: 'POST',
      url: '/api/users/',
      token: admin.token,
      body: { email: 'lost@test.example', password: 'long-enough', organization_id: 'no-such-org' },
    });
    expect(unknownOrg.statusCode).toBe(404);
    expect(
      await t.ctx.db
        .selectFrom('users')
        .select('id')
        .where('email', '=', 'lost@test.example')
        .executeTakeFirst(),
    ).toBeUndefined();
  });

  it('lists newest first and searches name, e-mail and organization name', async () => {
    const orgId = await t.createOrg(admin, 'Zebra Holdings');
    const z = await t.createUser('user', { first_name: 'Quincy' });
    await t.addToOrg(admin, orgId, z);
    await t.req({
      method: 'PATCH',
      url: `/api/users/${z.id}`,
      token: admin.token,
      body: { organization_id: orgId },
    });
    const all = (await t.req({ method: 'GET', url: '/api/users/', token: admin.token })).json();
    expect(all[0].id).toBe(z.id);
    for (const q of ['quincy', 'ZEBRA', z.email.slice(0, 8)]) {
      const hits = (
        await t.req({ method: 'GET', url: `/api/users/?search=${encodeURIComponent(q)}`, token: admin.token })
      ).json();
      expect(hits.map((h: { id: string }) => h.id)).toEqual([z.id]);
    }
    const none = (await t.req({ method: 'GET', url: '/api/users/?search=%25', token: admin.token })).json();
    expect(none).toEqual([]);
    const page = (
      await t.req({ method: 'GET', url: '/api/users/?limit=1&skip=1', token: admin.token })
    ).json();
    expect(page).toHaveLength(1);
    expect(page[0].id).toBe(all[1].id);
  });

  it('approving a waitlisted user (level change) revokes their sessions', async () => {
    const w = await t.createUser('waitlisted');
    const res = await t.req({
      method: 'PATCH',
      url: `/api/users/${w.id}`,
      token: admin.token,
      body: { user_level: 'user' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().user_level).toBe('user');
    expect((await t.req({ method: 'GET', url: '/api/users/me', token: w.token })).statusCode).toBe(401);
    const fresh = await t.login(w.email);
    expect((await t.req({ method: 'GET', url: '/api/organizations', token: fresh })).statusCode).toBe(200);
  });

  it('edits profile fields; invalid custom-prompts JSON becomes {}; a password change revokes sessions', async () => {
    const u = await t.createUser('user');
    const res = await t.req({
      method: 'PATCH',
      url: `/api/users/${u.id}`,
      token: admin.token,
      body: { objectives: ['One', ' Two '], custom_prompts: '{not json' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().profile).toMatchObject({ objectives: ['One', 'Two'], custom_prompts: {} });
    const json = await t.req({
      method: 'PATCH',
      url: `/api/users/${u.id}`,
      token: admin.token,
      body: { custom_prompts: '{"a":1}' },
    });
    expect(json.json().profile.custom_prompts).toEqual({ a: 1 });
    expect((await t.req({ method: 'GET', url: '/api/users/me', token: u.token })).statusCode).toBe(200);
    await t.req({
      method: 'PATCH',
      url: `/api/users/${u.id}`,
      token: admin.token,
      body: { password: 'admin-set-pass' },
    });
    expect((await t.req({ method: 'GET', url: '/api/users/me', token: u.token })).statusCode).toBe(401);
    expect(await t.login(u.email, 'admin-set-pass')).toBeTruthy();
  });

  it('refuses an e-mail already in use and an admin demoting themselves', async () => {
    const a = await t.createUser('user');
    const b = await t.createUser('user');
    const clash = await t.req({
      method: 'PATCH',
      url: `/api/users/${a.id}`,
      token: admin.token,
      body: { email: b.email },
    });
    expect(clash.statusCode).toBe(409);
    const self = await t.req({
      method: 'PATCH',
      url: `/api/users/${admin.id}`,
      token: admin.token,
      body: { user_level: 'user' },
    });
    expect(self.statusCode).toBe(403);
    const missing = await t.req({
      method: 'PATCH',
      url: '/api/users/nope',
      token: admin.token,
      body: { role: 'x' },
    });
    expect(missing.statusCode).toBe(404);
    const badLevel = await t.req({
      method: 'PATCH',
      url: `/api/users/${a.id}`,
      token: admin.token,
      body: { user_level: 'overlord' },
    });
    expect(badLevel.statusCode).toBe(422);
  });

  describe('delete', () => {
    it('deletes a regular user (sessions end) but never self, admin or ceo', async () => {
      const u = await t.createUser('user');
      const del = await t.req({ method: 'DELETE', url: `/api/users/${u.id}`, token: admin.token });
      expect(del.statusCode).toBe(204);
      expect((await t.req({ method: 'GET', url: '/api/users/me', token: u.token })).statusCode).toBe(401);
      expect(
        await t.ctx.db.selectFrom('users').select('id').where('id', '=', u.id).executeTakeFirst(),
      ).toBeUndefined();

      const self = await t.req({ method: 'DELETE', url: `/api/users/${admin.id}`, token: admin.token });
      expect(self.statusCode).toBe(403);
      expect(self.json().detail).toBe('You cannot delete your own account.');
      for (const level of ['admin', 'ceo']) {
        const v = await t.createUser(level);
        const r = await t.req({ method: 'DELETE', url: `/api/users/${v.id}`, token: admin.token });
        expect(r.statusCode).toBe(403);
        expect(r.json().detail).toBe('Admin and CEO accounts cannot be deleted.');
      }
      expect(
        (await t.req({ method: 'DELETE', url: '/api/users/unknown-id', token: admin.token })).statusCode,
      ).toBe(404);
    });
  });
});
