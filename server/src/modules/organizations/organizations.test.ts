import { afterAll, beforeAll, expect, it } from 'vitest';
import { apiSuite, createTestApp, type TestApp, type TestUser } from '../../../test/helpers.ts';

apiSuite('organizations', () => {
  let t: TestApp;
  let ceo: TestUser;
  let admin: TestUser;
  let outsiderCeo: TestUser;
  beforeAll(async () => {
    t = await createTestApp();
    ceo = await t.createUser('ceo');
    admin = await t.createUser('admin');
    outsiderCeo = await t.createUser('ceo');
  });
  afterAll(() => t.close());

  const post = (token: string, url: string, body: unknown) => t.req({ method: 'POST', url, token, body });
  /** An account a platform admin creates through the organization: the organization manages it. */
  const managedMember = async (orgId: string) => {
    const email = `managed-${Math.random().toString(36).slice(2, 8)}@test.example`;
    const res = await post(admin.token, '/api/users/', {
      email,
      password: 'managed-pass-1',
      user_level: 'user',
      organization_id: orgId,
    });
    expect(res.statusCode, res.body).toBe(201);
    return { id: res.json().id as string, email, token: await t.login(email, 'managed-pass-1') };
  };

  it('a ceo creates an organization, becomes its admin member, and it becomes their primary organization', async () => {
    const res = await post(ceo.token, '/api/organizations', { name: '  Apex Corp ' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      name: 'Apex Corp',
      member_count: 1,
      my_access_level: 'admin',
      can_manage: true,
      can_edit: true,
    });
    const me = (await t.req({ method: 'GET', url: '/api/users/me', token: ceo.token })).json();
    expect(me.organization_name).toBe('Apex Corp');
  });

  it('refuses a blank name and a regular user creating one', async () => {
    const blank = await post(ceo.token, '/api/organizations', { name: '   ' });
    expect(blank.statusCode).toBe(422);
    expect(blank.json().detail[0].msg).toBe('Organization name is required');
    const user = await t.createUser('user');
    const denied = await post(user.token, '/api/organizations', { name: 'Mine' });
    expect(denied.statusCode).toBe(403);
  });

  it('lists only the organizations a user belongs to; admin sees all', async () => {
    const orgId = await t.createOrg(ceo, 'Visible Co');
    const member = await t.createUser('user');
    await t.addToOrg(ceo, orgId, member);
    const mine = (await t.req({ method: 'GET', url: '/api/organizations/', token: member.token })).json();
    expect(mine.map((o: { name: string }) => o.name)).toEqual(['Visible Co']);
    expect(mine[0]).toMatchObject({
      my_access_level: 'user',
      can_manage: false,
      can_edit: false,
      member_count: 2,
    });
    const outsider = (
      await t.req({ method: 'GET', url: '/api/organizations', token: outsiderCeo.token })
    ).json();
    expect(outsider.map((o: { id: string }) => o.id)).not.toContain(orgId);
    const all = (await t.req({ method: 'GET', url: '/api/organizations', token: admin.token })).json();
    expect(all.find((o: { id: string }) => o.id === orgId)).toMatchObject({
      can_manage: true,
      can_edit: true,
      my_access_level: null,
    });
  });

  it('outsiders get 404 for every organization route; members without rights get 403', async () => {
    const orgId = await t.createOrg(ceo, 'Private Co');
    const member = await t.createUser('user');
    await t.addToOrg(ceo, orgId, member);
    for (const [method, url, body] of [
      ['GET', `/api/organizations/${orgId}/users`, undefined],
      ['PATCH', `/api/organizations/${orgId}`, { name: 'Hijack' }],
      ['DELETE', `/api/organizations/${orgId}`, undefined],
      ['POST', `/api/organizations/${orgId}/users`, { email: 'x@test.example' }],
      ['DELETE', `/api/organizations/${orgId}/users/${member.id}`, undefined],
    ] as const) {
      const r = await t.req({ method, url, token: outsiderCeo.token, body });
      expect(r.statusCode, `${method} ${url}`).toBe(404);
    }
    expect(
      (await t.req({ method: 'GET', url: `/api/organizations/${orgId}/users`, token: member.token }))
        .statusCode,
    ).toBe(200);
    const rename = await t.req({
      method: 'PATCH',
      url: `/api/organizations/${orgId}`,
      token: member.token,
      body: { name: 'Mine now' },
    });
    expect(rename.statusCode).toBe(403);
    const add = await post(member.token, `/api/organizations/${orgId}/users`, {
      email: 'friend@test.example',
    });
    expect(add.statusCode).toBe(403);
    const org = await t.ctx.db
      .selectFrom('organizations')
      .select('name')
      .where('id', '=', orgId)
      .executeTakeFirstOrThrow();
    expect(org.name).toBe('Private Co');
  });

  it('invites an existing account and an unknown e-mail alike; duplicates are 409', async () => {
    const orgId = await t.createOrg(ceo, 'Members Co');
    const u = await t.createUser('user');
    const add = await post(ceo.token, `/api/organizations/${orgId}/users`, { email: u.email.toUpperCase() });
    expect(add.statusCode).toBe(201);
    expect(add.json()).toMatchObject({
      user_id: null,
      is_invite: true,
      org_access_level: 'user',
      email: u.email,
    });
    const invite = await post(ceo.token, `/api/organizations/${orgId}/users`, {
      email: 'later@test.example',
      org_access_level: 'manager',
    });
    expect(invite.json()).toMatchObject({ user_id: null, is_invite: true, org_access_level: 'manager' });
    const dup = await post(ceo.token, `/api/organizations/${orgId}/users`, { email: u.email });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().detail).toBe('This e-mail has already been invited to this organization.');
    const me = (await t.req({ method: 'GET', url: '/api/users/me', token: u.token })).json();
    expect(me.organization_id).toBeNull();
    const member = await t.createUser('user');
    await t.addToOrg(ceo, orgId, member);
    const again = await post(ceo.token, `/api/organizations/${orgId}/users`, { email: member.email });
    expect(again.statusCode).toBe(409);
    expect(again.json().detail).toBe('This user is already a member of this organization.');
  });

  it('validates member input with the spec messages', async () => {
    const orgId = await t.createOrg(ceo);
    const noEmail = await post(ceo.token, `/api/organizations/${orgId}/users`, { org_access_level: 'user' });
    expect(noEmail.statusCode).toBe(422);
    expect(noEmail.json().detail[0].msg).toBe('Email is required');
    const blank = await post(ceo.token, `/api/organizations/${orgId}/users`, { email: '  ' });
    expect(blank.json().detail[0].msg).toBe('Email is required');
    const bad = await post(ceo.token, `/api/organizations/${orgId}/users`, { email: 'nope' });
    expect(bad.json().detail[0].msg).toBe('Invalid email address');
    const level = await post(ceo.token, `/api/organizations/${orgId}/users`, {
      email: 'a@test.example',
      org_access_level: 'owner',
    });
    expect(level.statusCode).toBe(422);
    expect(level.json().detail[0].msg).toBe('Access level is required');
  });

  it('invited members cannot be edited or deleted', async () => {
    const orgId = await t.createOrg(ceo);
    const inv = (
      await post(ceo.token, `/api/organizations/${orgId}/users`, { email: 'pending@test.example' })
    ).json();
    const edit = await t.req({
      method: 'PATCH',
      url: `/api/organizations/${orgId}/users/${inv.id}`,
      token: ceo.token,
      body: { org_access_level: 'admin' },
    });
    expect(edit.statusCode).toBe(403);
    expect(edit.json().detail).toBe('Invited users cannot be edited or deleted.');
    const del = await t.req({
      method: 'DELETE',
      url: `/api/organizations/${orgId}/users/${inv.id}`,
      token: ceo.token,
    });
    expect(del.statusCode).toBe(403);
  });

  it('an organization admin (user level user) manages members but cannot rename or delete', async () => {
    const orgId = await t.createOrg(ceo, 'Delegated Co');
    const lead = await t.createUser('user');
    const staff = await managedMember(orgId);
    await t.addToOrg(ceo, orgId, lead, 'admin');
    const promote = await t.req({
      method: 'PATCH',
      url: `/api/organizations/${orgId}/users/${staff.id}`,
      token: lead.token,
      body: { org_access_level: 'manager', first_name: 'Renamed' },
    });
    expect(promote.statusCode).toBe(200);
    expect(promote.json()).toMatchObject({ org_access_level: 'manager', first_name: 'Renamed' });
    const rename = await t.req({
      method: 'PATCH',
      url: `/api/organizations/${orgId}`,
      token: lead.token,
      body: { name: 'X' },
    });
    expect(rename.statusCode).toBe(403);
    // account fields of a CEO are out of an org admin's reach
    const onCeo = await t.req({
      method: 'PATCH',
      url: `/api/organizations/${orgId}/users/${ceo.id}`,
      token: lead.token,
      body: { password: 'takeover-123' },
    });
    expect(onCeo.statusCode).toBe(403);
    expect(await t.login(ceo.email)).toBeTruthy();
  });

  it('editing a managed member password revokes their sessions; edits with nothing else keep the row', async () => {
    const orgId = await t.createOrg(ceo);
    const u = await managedMember(orgId);
    const short = await t.req({
      method: 'PATCH',
      url: `/api/organizations/${orgId}/users/${u.id}`,
      token: ceo.token,
      body: { password: 'short' },
    });
    expect(short.statusCode).toBe(422);
    expect(short.json().detail[0].msg).toBe('Password must be at least 8 characters');
    const ok = await t.req({
      method: 'PATCH',
      url: `/api/organizations/${orgId}/users/${u.id}`,
      token: ceo.token,
      body: { password: 'reset-by-ceo' },
    });
    expect(ok.statusCode).toBe(200);
    expect((await t.req({ method: 'GET', url: '/api/users/me', token: u.token })).statusCode).toBe(401);
    expect(await t.login(u.email, 'reset-by-ceo')).toBeTruthy();
  });

  it('removes a member (primary organization cleared) and unknown members are 404', async () => {
    const orgId = await t.createOrg(ceo, 'Leaving Co');
    const u = await t.createUser('user');
    await t.addToOrg(ceo, orgId, u);
    const del = await t.req({
      method: 'DELETE',
      url: `/api/organizations/${orgId}/users/${u.id}`,
      token: ceo.token,
    });
    expect(del.statusCode).toBe(204);
    const me = (await t.req({ method: 'GET', url: '/api/users/me', token: u.token })).json();
    expect(me.organization_id).toBeNull();
    expect(
      (await t.req({ method: 'DELETE', url: `/api/organizations/${orgId}/users/${u.id}`, token: ceo.token }))
        .statusCode,
    ).toBe(404);
  });

  it('renames and deletes; deleting clears members and primary organizations', async () => {
    const orgId = await t.createOrg(ceo, 'Old Name');
    const u = await t.createUser('user');
    await t.addToOrg(ceo, orgId, u);
    const ren = await t.req({
      method: 'PATCH',
      url: `/api/organizations/${orgId}/`,
      token: ceo.token,
      body: { name: 'New Name' },
    });
    expect(ren.statusCode).toBe(200);
    expect(ren.json().name).toBe('New Name');
    const del = await t.req({ method: 'DELETE', url: `/api/organizations/${orgId}`, token: ceo.token });
    expect(del.statusCode).toBe(204);
    expect(
      (await t.req({ method: 'GET', url: '/api/users/me', token: u.token })).json().organization_id,
    ).toBeNull();
    const left = await t.ctx.db
      .selectFrom('organization_members')
      .select('id')
      .where('organization_id', '=', orgId)
      .execute();
    expect(left).toEqual([]);
    expect(
      (await t.req({ method: 'DELETE', url: `/api/organizations/${orgId}`, token: ceo.token })).statusCode,
    ).toBe(404);
  });
});
