import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { newApiKeySecret } from '../../platform/auth/api-keys.ts';
import { apiSuite, createTestApp, type TestApp, type TestUser } from '../../../test/helpers.ts';
import { startTestSmtp } from '../../../test/smtp.ts';
import { INVITE_LINK_USED } from './memberships.service.ts';

/**
 * Issue 46 row 1: an invitation is bound at creation to the invited account, or to a one-time secret
 * e-mailed to the address; a matching e-mail string alone never claims it.
 */
apiSuite('invitations bound to an account or an e-mailed secret', () => {
  let smtp: Awaited<ReturnType<typeof startTestSmtp>>;
  let t: TestApp;
  let admin: TestUser;
  let ceoA: TestUser;
  let ceoB: TestUser;
  let orgA: string;
  let orgB: string;

  beforeAll(async () => {
    smtp = await startTestSmtp();
    t = await createTestApp({ SMTP_URL: smtp.url, PUBLIC_URL: 'https://cc.example' });
    admin = await t.createUser('admin');
    ceoA = await t.createUser('ceo');
    ceoB = await t.createUser('ceo');
    orgA = await t.createOrg(ceoA, 'Tenant A');
    orgB = await t.createOrg(ceoB, 'Victim B');
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  const req = (method: 'GET' | 'POST' | 'PATCH', url: string, token: string, body?: unknown) =>
    t.req({ method, url, token, body });
  const invite = (token: string, orgId: string, email: string, level = 'user') =>
    req('POST', `/api/organizations/${orgId}/users`, token, { email, org_access_level: level });
  const membershipsOf = (userId: string) =>
    t.ctx.db
      .selectFrom('organization_members')
      .select(['organization_id', 'org_access_level'])
      .where('user_id', '=', userId)
      .where('is_invite', '=', 0)
      .execute();

  /** An account a platform admin created through organization A (so A's admin manages it). */
  async function managedByA(email: string) {
    const res = await req('POST', '/api/users/', admin.token, {
      email,
      password: 'managed-pass-1',
      user_level: 'user',
      organization_id: orgA,
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().id as string;
  }

  it("attack: an org admin renames a managed account to another tenant's pending invitation e-mail", async () => {
    const inv = await invite(ceoB.token, orgB, 'newhire@b.example', 'admin');
    expect(inv.statusCode).toBe(201);
    // The link went to the address; the inviter is not shown it (a mail server is configured).
    expect(inv.json()).toMatchObject({ is_invite: true, invite_email_sent: true });
    expect(inv.json().invite_link).toBeUndefined();
    const managed = await managedByA('pawn@a.example');
    // The rename does not take effect: it waits for newhire@b.example to confirm it.
    const rename = await req('PATCH', `/api/organizations/${orgA}/users/${managed}`, ceoA.token, {
      email: 'newhire@b.example',
      password: 'chosen-by-attacker',
    });
    expect(rename.statusCode, rename.body).toBe(200);
    expect(rename.json()).toMatchObject({ email: 'pawn@a.example', pending_email: 'newhire@b.example' });
    const signIn = await t.req({
      method: 'POST',
      url: '/api/auth/token',
      form: { username: 'newhire@b.example', password: 'chosen-by-attacker' },
    });
    expect(signIn.statusCode).toBe(401);
    // Even signed in as the managed account, B's invitation is not its to see or accept.
    const pawn = await t.login('pawn@a.example', 'chosen-by-attacker');
    expect((await req('GET', '/api/users/me/invitations', pawn)).json()).toEqual([]);
    const accept = await req('POST', `/api/users/me/invitations/${inv.json().id}/accept`, pawn);
    expect(accept.statusCode).toBe(404);
    expect(await membershipsOf(managed)).toEqual([{ organization_id: orgA, org_access_level: 'user' }]);
  });

  it('an account that takes the e-mail of a pending invitation by any route cannot accept it', async () => {
    const inv = await invite(ceoB.token, orgB, 'later@b.example', 'admin');
    const someone = await managedByA('someone@a.example');
    // A platform admin's change is immediate: the e-mail string now matches the invitation.
    await req('PATCH', `/api/users/${someone}`, admin.token, { email: 'later@b.example' });
    const token = await t.login('later@b.example', 'managed-pass-1');
    expect((await req('GET', '/api/users/me/invitations', token)).json()).toEqual([]);
    expect((await req('POST', `/api/users/me/invitations/${inv.json().id}/accept`, token)).statusCode).toBe(
      404,
    );
    expect(await membershipsOf(someone)).toEqual([{ organization_id: orgA, org_access_level: 'user' }]);
  });

  it("an invitation bound to an account is void once that account's e-mail changed", async () => {
    const person = await t.createUser('user');
    const inv = await invite(ceoB.token, orgB, person.email);
    const secret = smtp.secretSentTo(person.email, '/invitation');
    const before = await t.ctx.db
      .selectFrom('organization_members')
      .select(['invited_user_id', 'invite_secret_hash'])
      .where('id', '=', inv.json().id)
      .executeTakeFirstOrThrow();
    expect(before.invited_user_id).toBe(person.id);
    await new Promise((r) => setTimeout(r, 5));
    // Away and back again: the account is no longer provably the one the invitation was sent to.
    await req('PATCH', `/api/users/${person.id}`, admin.token, { email: 'elsewhere@test.example' });
    await req('PATCH', `/api/users/${person.id}`, admin.token, { email: person.email });
    const token = await t.login(person.email);
    expect((await req('GET', '/api/users/me/invitations', token)).json()).toEqual([]);
    expect((await req('POST', `/api/users/me/invitations/${inv.json().id}/accept`, token)).statusCode).toBe(
      404,
    );
    const claim = await req('POST', '/api/users/me/invitations/claim', token, { token: secret });
    expect(claim.statusCode).toBe(404);
    expect(await membershipsOf(person.id)).toEqual([]);
  });

  it('the account an invitation was bound to accepts it from its list; its link opens for nobody else', async () => {
    const person = await t.createUser('user');
    const inv = await invite(ceoB.token, orgB, person.email, 'manager');
    const secret = smtp.secretSentTo(person.email, '/invitation');
    const other = await t.createUser('user');
    expect(
      (await req('POST', '/api/users/me/invitations/claim', other.token, { token: secret })).statusCode,
    ).toBe(404);
    const [listed] = (await req('GET', '/api/users/me/invitations', person.token)).json();
    expect(listed).toMatchObject({ id: inv.json().id, organization_name: 'Victim B' });
    expect(
      (await req('POST', `/api/users/me/invitations/${listed.id}/accept`, person.token)).statusCode,
    ).toBe(204);
    expect(await membershipsOf(person.id)).toEqual([{ organization_id: orgB, org_access_level: 'manager' }]);
  });

  it('an address with no account gets a one-time link; whoever opens it signs in and joins, once', async () => {
    const inv = await invite(ceoB.token, orgB, 'fresh@b.example', 'manager');
    const secret = smtp.secretSentTo('fresh@b.example', '/invitation');
    const stored = await t.ctx.db
      .selectFrom('organization_members')
      .select(['invite_secret_hash', 'invited_user_id'])
      .where('id', '=', inv.json().id)
      .executeTakeFirstOrThrow();
    expect(stored.invited_user_id).toBeNull();
    expect(stored.invite_secret_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(stored.invite_secret_hash).not.toContain(secret);
    const person = await t.createUser('user', { email: 'fresh@b.example' });
    // E-mail string match is not enough: the list stays empty and accepting by id is refused.
    expect((await req('GET', '/api/users/me/invitations', person.token)).json()).toEqual([]);
    expect(
      (await req('POST', `/api/users/me/invitations/${inv.json().id}/accept`, person.token)).statusCode,
    ).toBe(404);
    const wrong = await req('POST', '/api/users/me/invitations/claim', person.token, {
      token: 'not-the-secret',
    });
    expect(wrong.statusCode).toBe(404);
    expect(wrong.json().detail).toBe(INVITE_LINK_USED);
    const claim = await req('POST', '/api/users/me/invitations/claim', person.token, { token: secret });
    expect(claim.statusCode, claim.body).toBe(200);
    expect(claim.json()).toEqual({ organization_id: orgB, organization_name: 'Victim B' });
    expect(await membershipsOf(person.id)).toEqual([{ organization_id: orgB, org_access_level: 'manager' }]);
    const other = await t.createUser('user');
    const again = await req('POST', '/api/users/me/invitations/claim', other.token, { token: secret });
    expect(again.statusCode).toBe(404);
    expect(await membershipsOf(other.id)).toEqual([]);
  });

  it('an API key, whatever its scopes, cannot claim an invitation or send a verification link', async () => {
    await invite(ceoB.token, orgB, 'keyed@b.example');
    const secret = smtp.secretSentTo('keyed@b.example', '/invitation');
    const person = await t.createUser('user');
    const key = newApiKeySecret();
    const scopes = ['goals', 'tasks', 'notes', 'contacts', 'comms', 'conversations', 'runs', 'brief'].flatMap(
      (d) => [`read:${d}`, `write:${d}`],
    );
    await t.ctx.db
      .insertInto('api_keys')
      .values({
        id: randomUUID(),
        user_id: person.id,
        name: 'all scopes',
        prefix: key.prefix,
        secret_hash: key.hash,
        scopes: JSON.stringify(scopes),
        created_at: new Date().toISOString(),
        last_used_at: null,
        expires_at: null,
        revoked_at: null,
      })
      .execute();
    const claim = await req('POST', '/api/users/me/invitations/claim', key.secret, { token: secret });
    expect(claim.statusCode).toBe(403);
    expect(await membershipsOf(person.id)).toEqual([]);
    const resend = await t.req({
      method: 'POST',
      url: '/api/users/me/email-verification',
      token: key.secret,
    });
    expect(resend.statusCode).toBe(403);
  });

  it('sending a link invitation again replaces its secret', async () => {
    await invite(ceoB.token, orgB, 'twice@b.example');
    const first = smtp.secretSentTo('twice@b.example', '/invitation');
    expect((await invite(ceoB.token, orgB, 'twice@b.example')).statusCode).toBe(201);
    const second = smtp.secretSentTo('twice@b.example', '/invitation');
    expect(second).not.toBe(first);
    const person = await t.createUser('user');
    expect(
      (await req('POST', '/api/users/me/invitations/claim', person.token, { token: first })).statusCode,
    ).toBe(404);
    expect(
      (await req('POST', '/api/users/me/invitations/claim', person.token, { token: second })).statusCode,
    ).toBe(200);
  });
});

apiSuite('invitations without a mail server', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ PUBLIC_URL: 'https://cc.example' });
  });
  afterAll(() => t.close());

  it('shows the inviter the link to pass on, and only in the answer that creates it', async () => {
    const ceo = await t.createUser('ceo');
    const orgId = await t.createOrg(ceo, 'No Mail Co');
    const inv = await t.req({
      method: 'POST',
      url: `/api/organizations/${orgId}/users`,
      token: ceo.token,
      body: { email: 'offline@test.example' },
    });
    expect(inv.statusCode).toBe(201);
    expect(inv.json().invite_email_sent).toBe(false);
    const link = new URL(inv.json().invite_link);
    expect(`${link.origin}${link.pathname}`).toBe('https://cc.example/invitation');
    const token = new URLSearchParams(link.hash.slice(1)).get('token') ?? '';
    const list = await t.req({ method: 'GET', url: `/api/organizations/${orgId}/users`, token: ceo.token });
    expect(JSON.stringify(list.json())).not.toContain(token);
    const person = await t.createUser('user');
    const claim = await t.req({
      method: 'POST',
      url: '/api/users/me/invitations/claim',
      token: person.token,
      body: { token },
    });
    expect(claim.statusCode).toBe(200);
  });
});
