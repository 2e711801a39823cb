import { afterAll, beforeAll, expect, it } from 'vitest';
import { apiSuite, createTestApp, type TestApp, type TestUser } from '../../../test/helpers.ts';
import { startTestSmtp } from '../../../test/smtp.ts';
import { EMAIL_LINK_USED } from './email-ownership.service.ts';

/** Issue 46 rows 1-2: an address is the account's once a link sent to it was opened. */
apiSuite('e-mail ownership: verification and confirmed changes', () => {
  let smtp: Awaited<ReturnType<typeof startTestSmtp>>;
  let t: TestApp;
  let admin: TestUser;
  let ceo: TestUser;
  let orgId: string;

  beforeAll(async () => {
    smtp = await startTestSmtp();
    t = await createTestApp({ SMTP_URL: smtp.url, PUBLIC_URL: 'https://cc.example' });
    admin = await t.createUser('admin');
    ceo = await t.createUser('ceo');
    orgId = await t.createOrg(ceo, 'Managed Co');
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  const confirm = (token: string) =>
    t.req({ method: 'POST', url: '/api/auth/email/confirm', body: { token } });
  const me = async (token: string) => (await t.req({ method: 'GET', url: '/api/users/me', token })).json();

  async function register(email: string) {
    const res = await t.req({
      method: 'POST',
      url: '/api/users/register',
      body: { email, password: 'secret-123', first_name: 'New', last_name: 'Person' },
    });
    expect(res.statusCode).toBe(201);
    return res.json() as { id: string; email_verified: boolean };
  }

  it('self sign-up e-mails a verification link; opening it verifies the address, once', async () => {
    const reg = await register('signup@test.example');
    expect(reg.email_verified).toBe(false);
    const secret = smtp.secretSentTo('signup@test.example', '/confirm-email');
    const token = await t.login('signup@test.example', 'secret-123');
    expect((await me(token)).email_verified).toBe(false);
    const ok = await confirm(secret);
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ purpose: 'verify', email: 'signup@test.example' });
    expect((await me(token)).email_verified).toBe(true);
    const again = await confirm(secret);
    expect(again.statusCode).toBe(400);
    expect(again.json().detail).toBe(EMAIL_LINK_USED);
    // Verified already: nothing to resend.
    const resend = await t.req({ method: 'POST', url: '/api/users/me/email-verification', token });
    expect(resend.statusCode).toBe(409);
  });

  it('a waitlisted account may ask for the link again; only the newest works', async () => {
    await register('resend@test.example');
    const first = smtp.secretSentTo('resend@test.example', '/confirm-email');
    const token = await t.login('resend@test.example', 'secret-123');
    const resend = await t.req({ method: 'POST', url: '/api/users/me/email-verification', token });
    expect(resend.statusCode).toBe(200);
    expect(resend.json()).toEqual({ email_sent: true });
    const second = smtp.secretSentTo('resend@test.example', '/confirm-email');
    expect((await confirm(first)).statusCode).toBe(400);
    expect((await confirm(second)).statusCode).toBe(200);
  });

  it('a verification link for an address the account no longer has verifies nothing', async () => {
    const reg = await register('moved@test.example');
    const secret = smtp.secretSentTo('moved@test.example', '/confirm-email');
    await t.req({
      method: 'PATCH',
      url: `/api/users/${reg.id}`,
      token: admin.token,
      body: { email: 'moved2@test.example' },
    });
    expect((await confirm(secret)).statusCode).toBe(400);
    const row = await t.ctx.db
      .selectFrom('users')
      .select('email_verified_at')
      .where('id', '=', reg.id)
      .executeTakeFirstOrThrow();
    expect(row.email_verified_at).toBeNull();
  });

  it("an org admin's new e-mail for a managed account waits for the new address to confirm it", async () => {
    const made = await t.req({
      method: 'POST',
      url: '/api/users/',
      token: admin.token,
      body: {
        email: 'staff@test.example',
        password: 'staff-pass-1',
        user_level: 'user',
        organization_id: orgId,
      },
    });
    const id = made.json().id as string;
    const staffToken = await t.login('staff@test.example', 'staff-pass-1');
    const edit = await t.req({
      method: 'PATCH',
      url: `/api/organizations/${orgId}/users/${id}`,
      token: ceo.token,
      body: { email: 'staff.new@test.example' },
    });
    expect(edit.statusCode, edit.body).toBe(200);
    expect(edit.json()).toMatchObject({
      email: 'staff@test.example',
      pending_email: 'staff.new@test.example',
    });
    const list = await t.req({ method: 'GET', url: `/api/organizations/${orgId}/users`, token: ceo.token });
    expect(list.json().find((m: { user_id: string }) => m.user_id === id).pending_email).toBe(
      'staff.new@test.example',
    );
    // Until then the old address is the account's.
    expect(await t.login('staff@test.example', 'staff-pass-1')).toBeTruthy();
    const early = await t.req({
      method: 'POST',
      url: '/api/auth/token',
      form: { username: 'staff.new@test.example', password: 'staff-pass-1' },
    });
    expect(early.statusCode).toBe(401);
    const secret = smtp.secretSentTo('staff.new@test.example', '/confirm-email');
    const ok = await confirm(secret);
    expect(ok.json()).toEqual({ purpose: 'change', email: 'staff.new@test.example' });
    const row = await t.ctx.db
      .selectFrom('users')
      .select(['email', 'email_verified_at', 'email_changed_at'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.email).toBe('staff.new@test.example');
    expect(row.email_verified_at).toBeTruthy();
    expect(row.email_changed_at).toBeTruthy();
    // A changed e-mail signs the account out everywhere; the member row follows it.
    expect((await t.req({ method: 'GET', url: '/api/users/me', token: staffToken })).statusCode).toBe(401);
    expect(await t.login('staff.new@test.example', 'staff-pass-1')).toBeTruthy();
    const after = await t.req({ method: 'GET', url: `/api/organizations/${orgId}/users`, token: ceo.token });
    expect(after.json().find((m: { user_id: string }) => m.user_id === id)).toMatchObject({
      email: 'staff.new@test.example',
      pending_email: null,
    });
    expect((await confirm(secret)).statusCode).toBe(400);
  });
});
