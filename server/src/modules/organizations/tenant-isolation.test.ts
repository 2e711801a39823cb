import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiSuite, createTestApp, PASSWORD, type TestApp, type TestUser } from '../../../test/helpers.ts';
import { EMAIL_CHANGE_NEEDS_MAIL } from '../users/email-ownership.service.ts';

/**
 * Two tenants, A and B, probed the way an attacker in B would (issue 16 §2): nobody joins an
 * organization without consent, nobody changes an account their organization does not manage, and
 * rights in an organization come from the membership there, not from the global level.
 */
apiSuite('tenant isolation between organizations', () => {
  let t: TestApp;
  let admin: TestUser;
  let ceoA: TestUser;
  let ceoB: TestUser;
  let orgA: string;
  let orgB: string;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.createUser('admin');
    ceoA = await t.createUser('ceo');
    ceoB = await t.createUser('ceo');
    orgA = await t.createOrg(ceoA, 'Tenant A');
    orgB = await t.createOrg(ceoB, 'Tenant B');
  });
  afterAll(() => t.close());

  const req = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, token: string, body?: unknown) =>
    t.req({ method, url, token, body });
  const invite = (token: string, orgId: string, email: string, level = 'user') =>
    req('POST', `/api/organizations/${orgId}/users`, token, { email, org_access_level: level });
  const invitations = async (token: string) => {
    const res = await req('GET', '/api/users/me/invitations', token);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { id: string; organization_name: string; org_access_level: string }[];
  };
  const members = async (orgId: string, token: string) =>
    (await req('GET', `/api/organizations/${orgId}/users`, token)).json() as {
      id: string;
      user_id: string | null;
      email: string;
      org_access_level: string;
      can_edit_account: boolean;
      can_change_access: boolean;
    }[];
  const memberOfA = async () => {
    const u = await t.createUser('user', { first_name: 'Victim' });
    await t.addToOrg(ceoA, orgA, u);
    return u;
  };

  describe('account takeover', () => {
    it("B's ceo adding a user of A makes an invitation, and B cannot set that account's password or e-mail", async () => {
      const victim = await memberOfA();
      const added = await invite(ceoB.token, orgB, victim.email);
      expect(added.statusCode).toBe(201);
      expect(added.json()).toMatchObject({ is_invite: true, user_id: null, can_edit_account: false });
      // not a member: the account id does not name a member of B
      for (const body of [{ password: 'attacker-pass-1' }, { email: 'attacker@evil.example' }]) {
        const patch = await req('PATCH', `/api/organizations/${orgB}/users/${victim.id}`, ceoB.token, body);
        expect(patch.statusCode).toBe(404);
      }
      // ... and once the victim accepts, their account is still not B's to change
      const [inv] = await invitations(victim.token);
      expect((await req('POST', `/api/users/me/invitations/${inv.id}/accept`, victim.token)).statusCode).toBe(
        204,
      );
      for (const body of [
        { password: 'attacker-pass-1' },
        { email: 'attacker@evil.example' },
        { first_name: 'Owned' },
      ]) {
        const patch = await req('PATCH', `/api/organizations/${orgB}/users/${victim.id}`, ceoB.token, body);
        expect(patch.statusCode).toBe(403);
        expect(patch.json().detail).toMatch(/not managed by this organization/);
      }
      expect(
        (
          await t.req({
            method: 'POST',
            url: '/api/auth/token',
            form: { username: victim.email, password: 'attacker-pass-1' },
          })
        ).statusCode,
      ).toBe(401);
      expect(await t.login(victim.email, PASSWORD)).toBeTruthy();
      const me = (await req('GET', '/api/users/me', victim.token)).json();
      expect(me).toMatchObject({ email: victim.email, first_name: 'Victim' });
      expect((await members(orgB, ceoB.token)).find((m) => m.user_id === victim.id)?.can_edit_account).toBe(
        false,
      );
    });

    it('an invitation leaks nothing about the account: the same answer for an existing and an unknown e-mail', async () => {
      const victim = await memberOfA();
      const known = (await invite(ceoB.token, orgB, victim.email, 'manager')).json();
      const unknown = (await invite(ceoB.token, orgB, 'nobody-here@test.example', 'manager')).json();
      const strip = (m: Record<string, unknown>) => {
        const { id: _i, email: _e, created_at: _c, updated_at: _u, invite_link: link, ...rest } = m;
        return { ...rest, link: typeof link };
      };
      expect(strip(known)).toEqual(strip(unknown));
      expect(known).toMatchObject({ user_id: null, first_name: null, last_name: null, user_level: null });
      const row = (await members(orgB, ceoB.token)).find((m) => m.email === victim.email);
      expect(row).toMatchObject({ user_id: null, first_name: null, user_level: null, is_invite: true });
      // the invitation gives nothing before it is accepted
      expect((await req('GET', `/api/organizations/${orgB}/users`, victim.token)).statusCode).toBe(404);
      const orgs = (await req('GET', '/api/organizations', victim.token)).json();
      expect(orgs.map((o: { id: string }) => o.id)).toEqual([orgA]);
    });
  });

  describe('invitations', () => {
    it('the invitee accepts: member at the offered level, primary organization when they had none', async () => {
      const person = await t.createUser('user');
      await invite(ceoB.token, orgB, person.email, 'manager');
      const list = await invitations(person.token);
      expect(list).toEqual([
        expect.objectContaining({
          organization_id: orgB,
          organization_name: 'Tenant B',
          org_access_level: 'manager',
        }),
      ]);
      expect(list[0]).toHaveProperty('invited_by_name');
      expect(list[0]).toHaveProperty('created_at');
      const ok = await req('POST', `/api/users/me/invitations/${list[0].id}/accept`, person.token);
      expect(ok.statusCode).toBe(204);
      expect(await invitations(person.token)).toEqual([]);
      const mine = (await req('GET', '/api/organizations', person.token)).json();
      expect(mine).toEqual([expect.objectContaining({ id: orgB, my_access_level: 'manager' })]);
      expect((await req('GET', '/api/users/me', person.token)).json().organization_id).toBe(orgB);
      const twice = await req('POST', `/api/users/me/invitations/${list[0].id}/accept`, person.token);
      expect(twice.statusCode).toBe(409);
      const declineAfter = await req('POST', `/api/users/me/invitations/${list[0].id}/decline`, person.token);
      expect(declineAfter.statusCode).toBe(409);
    });

    it('the invitee declines: no membership, gone from the member list, acting again is 409; it may be sent again', async () => {
      const person = await t.createUser('user');
      await invite(ceoB.token, orgB, person.email);
      const [inv] = await invitations(person.token);
      expect(
        (await req('POST', `/api/users/me/invitations/${inv.id}/decline`, person.token)).statusCode,
      ).toBe(204);
      expect(await invitations(person.token)).toEqual([]);
      expect((await req('GET', '/api/organizations', person.token)).json()).toEqual([]);
      expect((await members(orgB, ceoB.token)).some((m) => m.email === person.email)).toBe(false);
      expect(
        (await req('POST', `/api/users/me/invitations/${inv.id}/decline`, person.token)).statusCode,
      ).toBe(409);
      expect((await req('POST', `/api/users/me/invitations/${inv.id}/accept`, person.token)).statusCode).toBe(
        409,
      );
      expect((await invite(ceoB.token, orgB, person.email)).statusCode).toBe(201);
      expect(await invitations(person.token)).toHaveLength(1);
    });

    it("someone else's invitation is 404, to accept, to decline and in the list", async () => {
      const invitee = await t.createUser('user');
      const other = await t.createUser('user');
      const sent = (await invite(ceoB.token, orgB, invitee.email)).json();
      expect(await invitations(other.token)).toEqual([]);
      for (const action of ['accept', 'decline']) {
        const res = await req('POST', `/api/users/me/invitations/${sent.id}/${action}`, other.token);
        expect(res.statusCode).toBe(404);
        expect(res.json().detail).toBe('Invitation not found');
      }
      // a plain membership row is not an invitation either
      const [row] = (await members(orgA, ceoA.token)).filter((m) => m.user_id === ceoA.id);
      expect((await req('POST', `/api/users/me/invitations/${row.id}/accept`, ceoA.token)).statusCode).toBe(
        404,
      );
      expect(await invitations(invitee.token)).toHaveLength(1);
    });

    it('a waitlisted account sees and claims no invitation until it is approved', async () => {
      const email = 'waiting-invitee@test.example';
      const sent = (await invite(ceoB.token, orgB, email, 'admin')).json();
      const reg = await t.req({
        method: 'POST',
        url: '/api/users/register',
        body: { email, password: 'secret-123', first_name: 'Wait', last_name: 'Listed' },
      });
      expect(reg.statusCode).toBe(201);
      expect(reg.json().organization_id).toBeNull();
      const token = await t.login(email, 'secret-123');
      expect((await req('GET', '/api/users/me/invitations', token)).statusCode).toBe(403);
      expect((await req('POST', `/api/users/me/invitations/${sent.id}/accept`, token)).statusCode).toBe(403);
      expect((await members(orgB, ceoB.token)).find((m) => m.email === email)).toMatchObject({
        is_invite: true,
        user_id: null,
      });
      const approve = await req('PATCH', `/api/users/${reg.json().id}`, admin.token, { user_level: 'user' });
      expect(approve.statusCode).toBe(200);
      const approved = await t.login(email, 'secret-123');
      // The invitation was for an address with no account: only its link (here shown to the inviter,
      // as no mail server is configured) claims it, not the e-mail the account signed up with.
      expect(await invitations(approved)).toEqual([]);
      const secret = new URLSearchParams(new URL(sent.invite_link).hash.slice(1)).get('token');
      const claim = await req('POST', '/api/users/me/invitations/claim', approved, { token: secret });
      expect(claim.statusCode).toBe(200);
      const orgs = (await req('GET', '/api/organizations', approved)).json();
      expect(orgs).toEqual([
        expect.objectContaining({ id: orgB, my_access_level: 'admin', can_manage: true }),
      ]);
    });
  });

  describe('rights come from the membership', () => {
    it('a ceo who is only a user member gets 403 on manage, rename and delete, and can_* false', async () => {
      const plainCeo = await t.createUser('ceo');
      await t.addToOrg(ceoA, orgA, plainCeo, 'user');
      const staff = await memberOfA();
      const calls = [
        invite(plainCeo.token, orgA, 'friend@test.example'),
        req('PATCH', `/api/organizations/${orgA}/users/${staff.id}`, plainCeo.token, {
          org_access_level: 'admin',
        }),
        req('DELETE', `/api/organizations/${orgA}/users/${staff.id}`, plainCeo.token),
        req('PATCH', `/api/organizations/${orgA}`, plainCeo.token, { name: 'Taken over' }),
        req('DELETE', `/api/organizations/${orgA}`, plainCeo.token),
      ];
      for (const res of await Promise.all(calls)) expect(res.statusCode, res.body).toBe(403);
      const [row] = (await req('GET', '/api/organizations', plainCeo.token)).json();
      expect(row).toMatchObject({ id: orgA, name: 'Tenant A', can_manage: false, can_edit: false });
      expect((await members(orgA, ceoA.token)).find((m) => m.user_id === staff.id)?.org_access_level).toBe(
        'user',
      );
    });

    it('renaming needs a ceo who is an org admin: not an org admin alone, not a ceo manager', async () => {
      const lead = await t.createUser('user');
      await t.addToOrg(ceoA, orgA, lead, 'admin');
      expect((await req('PATCH', `/api/organizations/${orgA}`, lead.token, { name: 'X' })).statusCode).toBe(
        403,
      );
      const [row] = (await req('GET', '/api/organizations', lead.token)).json();
      expect(row).toMatchObject({ can_manage: true, can_edit: false });
      // a ceo renames only as an org admin, not as a manager member
      const managerCeo = await t.createUser('ceo');
      await t.addToOrg(ceoA, orgA, managerCeo, 'manager');
      expect(
        (await req('PATCH', `/api/organizations/${orgA}`, managerCeo.token, { name: 'X' })).statusCode,
      ).toBe(403);
      const coCeo = await t.createUser('ceo');
      await t.addToOrg(ceoA, orgA, coCeo, 'admin');
      const rename = await req('PATCH', `/api/organizations/${orgA}`, coCeo.token, { name: 'Tenant A' });
      expect(rename.statusCode).toBe(200);
    });

    it('nobody raises anyone above their own org level, by invitation or by edit', async () => {
      const orgC = await t.createOrg(ceoA, 'Tenant C');
      const manager = await t.createUser('ceo');
      await t.addToOrg(ceoA, orgC, manager, 'manager');
      const staff = await t.createUser('user');
      await t.addToOrg(ceoA, orgC, staff, 'user');
      const viaInvite = await invite(manager.token, orgC, 'boost@test.example', 'admin');
      expect(viaInvite.statusCode).toBe(403);
      const viaEdit = await req('PATCH', `/api/organizations/${orgC}/users/${staff.id}`, manager.token, {
        org_access_level: 'admin',
      });
      expect(viaEdit.statusCode).toBe(403);
      const self = await req('PATCH', `/api/organizations/${orgC}/users/${manager.id}`, manager.token, {
        org_access_level: 'admin',
      });
      expect(self.statusCode).toBe(403);
      const levels = Object.fromEntries(
        (await members(orgC, ceoA.token)).map((m) => [m.email, m.org_access_level]),
      );
      expect(levels[staff.email]).toBe('user');
      expect(levels[manager.email]).toBe('manager');
      expect(levels['boost@test.example']).toBeUndefined();
    });

    it("an org admin cannot demote or remove the organization's ceo or a platform admin", async () => {
      const lead = await t.createUser('user');
      await t.addToOrg(ceoA, orgA, lead, 'admin');
      const platform = await t.createUser('admin');
      await t.addToOrg(ceoA, orgA, platform, 'admin');
      for (const target of [ceoA, platform]) {
        const demote = await req('PATCH', `/api/organizations/${orgA}/users/${target.id}`, lead.token, {
          org_access_level: 'user',
        });
        expect(demote.statusCode).toBe(403);
        expect(demote.json().detail).toMatch(/Only a platform administrator/);
        const remove = await req('DELETE', `/api/organizations/${orgA}/users/${target.id}`, lead.token);
        expect(remove.statusCode).toBe(403);
      }
      const levels = Object.fromEntries(
        (await members(orgA, admin.token)).map((m) => [m.user_id, m.org_access_level]),
      );
      expect(levels[ceoA.id]).toBe('admin');
      expect(levels[platform.id]).toBe('admin');
      // the screen is told, so it offers no control the server would refuse
      const seen = Object.fromEntries(
        (await members(orgA, lead.token)).map((m) => [m.user_id, m.can_change_access]),
      );
      expect(seen[ceoA.id]).toBe(false);
      expect(seen[platform.id]).toBe(false);
      expect(seen[lead.id]).toBe(true);
      // a platform admin may
      const byAdmin = await req('PATCH', `/api/organizations/${orgA}/users/${platform.id}`, admin.token, {
        org_access_level: 'manager',
      });
      expect(byAdmin.statusCode).toBe(200);
    });
  });

  describe('accounts the organization manages', () => {
    it('an org admin edits the password of an account created through the organization; its e-mail only by a confirmed link', async () => {
      const created = await req('POST', '/api/users/', admin.token, {
        email: 'managed-b@test.example',
        password: 'first-pass-1',
        user_level: 'user',
        organization_id: orgB,
      });
      expect(created.statusCode).toBe(201);
      const id = created.json().id as string;
      expect((await members(orgB, ceoB.token)).find((m) => m.user_id === id)?.can_edit_account).toBe(true);
      const edit = await req('PATCH', `/api/organizations/${orgB}/users/${id}`, ceoB.token, {
        password: 'second-pass-2',
      });
      expect(edit.statusCode, edit.body).toBe(200);
      expect(edit.json()).toMatchObject({ email: 'managed-b@test.example', can_edit_account: true });
      expect(await t.login('managed-b@test.example', 'second-pass-2')).toBeTruthy();
      // This app has no mail server: a new e-mail could never be confirmed, so nothing changes at all.
      const mail = await req('PATCH', `/api/organizations/${orgB}/users/${id}`, ceoB.token, {
        email: 'managed-b2@test.example',
        first_name: 'Changed',
      });
      expect(mail.statusCode).toBe(422);
      expect(mail.json().detail).toBe(EMAIL_CHANGE_NEEDS_MAIL);
      const row = await t.ctx.db
        .selectFrom('users')
        .select(['email', 'first_name'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ email: 'managed-b@test.example', first_name: null });
      await req('PATCH', `/api/users/${id}`, admin.token, { email: 'managed-b2@test.example' });
      // once it also belongs to another organization, B no longer manages it alone
      const token = await t.login('managed-b2@test.example', 'second-pass-2');
      await invite(ceoA.token, orgA, 'managed-b2@test.example');
      const [inv] = await invitations(token);
      await req('POST', `/api/users/me/invitations/${inv.id}/accept`, token);
      const refused = await req('PATCH', `/api/organizations/${orgB}/users/${id}`, ceoB.token, {
        password: 'third-pass-3',
      });
      expect(refused.statusCode).toBe(403);
      expect((await members(orgB, ceoB.token)).find((m) => m.user_id === id)?.can_edit_account).toBe(false);
      // a platform admin may change any account
      const byAdmin = await req('PATCH', `/api/organizations/${orgB}/users/${id}`, admin.token, {
        first_name: 'Renamed',
      });
      expect(byAdmin.statusCode).toBe(200);
    });
  });
});
