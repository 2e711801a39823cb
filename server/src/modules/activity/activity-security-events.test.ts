import { afterAll, beforeAll, expect, it } from 'vitest';
import { apiSuite, createTestApp, PASSWORD, type TestApp, type TestUser } from '../../../test/helpers.ts';
import { entriesAdded, oneEntry } from './activity-test-kit.ts';

/**
 * Every security event of issue 19 §3 writes exactly one ledger entry: sign-in, failed sign-in,
 * lockout, logout, password change, user created, level changed, user deleted, memberships and
 * invitations (and organizations, which carry memberships). Each test counts its action's rows.
 */
apiSuite('activity ledger: security events', () => {
  let t: TestApp;
  let admin: TestUser;
  let ceo: TestUser;
  let member: TestUser;
  let org: string;
  beforeAll(async () => {
    t = await createTestApp({ LOGIN_MAX_FAILURES: '3' });
    admin = await t.createUser('admin');
    ceo = await t.createUser('ceo');
    member = await t.createUser('user');
    org = await t.createOrg(ceo, 'Ledger Co');
    await t.addToOrg(ceo, org, member, 'user');
  });
  afterAll(() => t.close());

  const added = (action: string, fn: () => Promise<unknown>) => entriesAdded(t, action, fn);
  const one = (action: string, fn: () => Promise<unknown>) => oneEntry(t, action, fn);
  const signIn = (email: string, password: string) =>
    t.req({ method: 'POST', url: '/api/auth/token', form: { username: email, password } });

  it('sign-in (via api, or ui from the web app)', async () => {
    const row = await one('auth.sign_in', async () =>
      expect((await signIn(member.email, PASSWORD)).statusCode).toBe(200),
    );
    expect(row).toMatchObject({ actor_user_id: member.id, via: 'api', entity_id: member.id, undoable: 0 });
    const fromWeb = await one('auth.sign_in', () =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/token',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-cc-client': 'web' },
        payload: new URLSearchParams({ username: member.email, password: PASSWORD }).toString(),
      }),
    );
    expect(fromWeb.via).toBe('ui');
  });

  it('failed sign-in, known account or not, and the lockout once', async () => {
    const victim = await t.createUser('user');
    const failed = await one('auth.sign_in_failed', async () =>
      expect((await signIn(victim.email, 'wrong-password')).statusCode).toBe(401),
    );
    expect(failed).toMatchObject({ actor_user_id: victim.id, entity_id: victim.id });
    expect(failed.summary).toContain(victim.email);
    expect(failed.summary + (failed.after ?? '')).not.toContain('wrong-password');
    const unknown = await one('auth.sign_in_failed', () => signIn('nobody@test.example', 'x'));
    expect(unknown.actor_user_id).toBeNull();

    await signIn(victim.email, 'wrong-again');
    const lock = await one('auth.lockout', async () =>
      expect((await signIn(victim.email, 'third-wrong')).statusCode).toBe(401),
    );
    expect(lock).toMatchObject({ actor_user_id: victim.id, entity_id: victim.id });
    // Refused while locked: no more lockout entries.
    expect(await added('auth.lockout', () => signIn(victim.email, PASSWORD))).toHaveLength(0);
  });

  it('logout', async () => {
    const token = await t.login(member.email);
    const row = await one('auth.sign_out', async () =>
      expect((await t.req({ method: 'POST', url: '/api/auth/logout', token })).statusCode).toBe(204),
    );
    expect(row.actor_user_id).toBe(member.id);
  });

  it('password change, never with the password', async () => {
    const u = await t.createUser('user');
    const row = await one('user.password_changed', async () => {
      const res = await t.req({
        method: 'PATCH',
        url: '/api/users/me',
        token: u.token,
        body: { password: 'a-new-password-42', current_password: PASSWORD },
      });
      expect(res.statusCode, res.body).toBe(200);
    });
    expect(row).toMatchObject({ actor_user_id: u.id, entity_id: u.id });
    expect(JSON.stringify(row)).not.toContain('a-new-password-42');
    expect(JSON.stringify(row)).not.toContain(PASSWORD);
  });

  it('user created (sign-up and by an admin)', async () => {
    const signup = await one('user.created', async () => {
      const res = await t.req({
        method: 'POST',
        url: '/api/users/register',
        body: {
          email: 'newbie@test.example',
          password: 'a-password-123',
          first_name: 'New',
          last_name: 'Comer',
        },
      });
      expect(res.statusCode, res.body).toBe(201);
    });
    expect(signup.after).toBe(JSON.stringify({ email: 'newbie@test.example', user_level: 'waitlisted' }));
    const byAdmin = await one('user.created', async () => {
      const res = await t.req({
        method: 'POST',
        url: '/api/users/',
        token: admin.token,
        body: { email: 'made@test.example', password: 'a-password-123', user_level: 'user' },
      });
      expect(res.statusCode, res.body).toBe(201);
    });
    expect(byAdmin.actor_user_id).toBe(admin.id);
    expect(byAdmin.after).not.toContain('a-password-123');
  });

  it('level changed, with before and after', async () => {
    const u = await t.createUser('waitlisted');
    const row = await one('user.level_changed', async () => {
      const res = await t.req({
        method: 'PATCH',
        url: `/api/users/${u.id}`,
        token: admin.token,
        body: { user_level: 'user' },
      });
      expect(res.statusCode, res.body).toBe(200);
    });
    expect(row).toMatchObject({
      actor_user_id: admin.id,
      entity_id: u.id,
      before: JSON.stringify({ user_level: 'waitlisted' }),
      after: JSON.stringify({ user_level: 'user' }),
    });
  });

  it('user deleted', async () => {
    const u = await t.createUser('user');
    const row = await one('user.deleted', async () =>
      expect(
        (await t.req({ method: 'DELETE', url: `/api/users/${u.id}`, token: admin.token })).statusCode,
      ).toBe(204),
    );
    expect(row).toMatchObject({ actor_user_id: admin.id, entity_id: u.id });
    expect(row.before).toContain(u.email);
  });

  it('organization created and deleted (memberships with it)', async () => {
    let id = '';
    const created = await one('organization.created', async () => {
      const res = await t.req({
        method: 'POST',
        url: '/api/organizations',
        token: ceo.token,
        body: { name: 'Short-lived' },
      });
      expect(res.statusCode, res.body).toBe(201);
      id = res.json().id;
    });
    expect(created).toMatchObject({ actor_user_id: ceo.id, entity_id: id });
    const deleted = await one('organization.deleted', async () => {
      const res = await t.req({ method: 'DELETE', url: `/api/organizations/${id}`, token: ceo.token });
      expect(res.statusCode, res.body).toBe(204);
    });
    expect(deleted.before).toBe(JSON.stringify({ name: 'Short-lived' }));
  });

  it('a signed-in write records ui from the web app and api from any other client', async () => {
    const fromWeb = (method: 'POST' | 'PATCH', url: string, token: string, payload: object) =>
      t.app.inject({
        method,
        url,
        headers: { authorization: `Bearer ${token}`, 'x-cc-client': 'web' },
        payload,
      });
    const webOrg = await one('organization.created', async () => {
      const res = await fromWeb('POST', '/api/organizations', ceo.token, { name: 'From the web' });
      expect(res.statusCode, res.body).toBe(201);
    });
    expect(webOrg).toMatchObject({ actor_user_id: ceo.id, via: 'ui' });
    const apiOrg = await one('organization.created', async () => {
      const res = await t.req({
        method: 'POST',
        url: '/api/organizations',
        token: ceo.token,
        body: { name: 'From a script' },
      });
      expect(res.statusCode, res.body).toBe(201);
    });
    expect(apiOrg.via).toBe('api');
    const u = await t.createUser('waitlisted');
    const level = await one('user.level_changed', async () => {
      const res = await fromWeb('PATCH', `/api/users/${u.id}`, admin.token, { user_level: 'user' });
      expect(res.statusCode, res.body).toBe(200);
    });
    expect(level).toMatchObject({ actor_user_id: admin.id, via: 'ui' });
  });

  it('invitation sent, accepted and declined; membership level changed and removed', async () => {
    const joiner = await t.createUser('user');
    const decliner = await t.createUser('user');
    const invite = (u: TestUser) =>
      t.req({
        method: 'POST',
        url: `/api/organizations/${org}/users`,
        token: ceo.token,
        body: { email: u.email, org_access_level: 'user' },
      });
    const sent = await one('invitation.created', async () =>
      expect((await invite(joiner)).statusCode).toBe(201),
    );
    expect(sent.actor_user_id).toBe(ceo.id);
    await invite(decliner);
    const pending = async (u: TestUser) =>
      (await t.req({ method: 'GET', url: '/api/users/me/invitations', token: u.token })).json()[0]
        .id as string;
    const accepted = await one('invitation.accepted', async () => {
      const res = await t.req({
        method: 'POST',
        url: `/api/users/me/invitations/${await pending(joiner)}/accept`,
        token: joiner.token,
      });
      expect(res.statusCode, res.body).toBeLessThan(300);
    });
    expect(accepted.actor_user_id).toBe(joiner.id);
    await one('invitation.declined', async () => {
      const res = await t.req({
        method: 'POST',
        url: `/api/users/me/invitations/${await pending(decliner)}/decline`,
        token: decliner.token,
      });
      expect(res.statusCode, res.body).toBeLessThan(300);
    });
    const level = await one('membership.level_changed', async () => {
      const res = await t.req({
        method: 'PATCH',
        url: `/api/organizations/${org}/users/${joiner.id}`,
        token: ceo.token,
        body: { org_access_level: 'manager' },
      });
      expect(res.statusCode, res.body).toBe(200);
    });
    expect(level.after).toBe(JSON.stringify({ org_access_level: 'manager' }));
    await one('membership.removed', async () => {
      const res = await t.req({
        method: 'DELETE',
        url: `/api/organizations/${org}/users/${joiner.id}`,
        token: ceo.token,
      });
      expect(res.statusCode, res.body).toBe(204);
    });
  });
});
