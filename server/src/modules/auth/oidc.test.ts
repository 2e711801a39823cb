import { afterAll, beforeAll, expect, it } from 'vitest';
import { apiSuite, createTestApp, type TestApp } from '../../../test/helpers.ts';
import { startOidcProvider, TestBrowser, type TestOidcProvider } from '../../../test/oidc-provider.ts';
import { randomUUID } from 'node:crypto';
import { SSO_LINK_EXPIRED } from './oidc-linking.ts';
import { SSO_FAILED, SSO_LINK_USED, SSO_OTHER_BROWSER, stateCookieValue } from './oidc.service.ts';

apiSuite('single sign-on with OpenID Connect', () => {
  let idp: TestOidcProvider;
  let t: TestApp;
  let base: string;

  beforeAll(async () => {
    idp = await startOidcProvider();
    t = await createTestApp({
      OIDC_ISSUER_URL: idp.issuer,
      OIDC_CLIENT_ID: idp.clientId,
      OIDC_CLIENT_SECRET: idp.clientSecret,
      OIDC_BUTTON_LABEL: 'Acme ID',
      OIDC_ALLOWED_DOMAINS: 'acme.example, @corp.example',
    });
    base = await t.listen();
    idp.serve(`${base}/api/auth/oidc/callback`);
  });
  afterAll(async () => {
    await t.close();
    await idp.close();
  });

  const atApp = (u: URL) => u.origin === base;
  const atCallback = (u: URL) => atApp(u) && u.pathname === '/api/auth/oidc/callback';
  const atLogin = (u: URL) => atApp(u) && u.pathname === '/login';

  /** Walks the provider's pages as `login` and stops where `stop` says (default: back on the login page). */
  async function throughProvider(login: string, stop: (u: URL) => boolean = atLogin) {
    const browser = new TestBrowser();
    let page = await browser.follow(`${base}/api/auth/oidc/start`, stop);
    for (const prompt of ['login', 'consent']) {
      if (stop(page.url)) break;
      page = await browser.submit(page, { prompt, login, password: 'anything' }, stop);
    }
    expect(stop(page.url), `ended at ${page.url}`).toBe(true);
    return { browser, url: page.url };
  }

  async function signIn(login: string) {
    const { url } = await throughProvider(login);
    const code = url.searchParams.get('sso');
    expect(code, url.searchParams.get('sso_error') ?? '').toBeTruthy();
    const res = await t.req({ method: 'POST', url: '/api/auth/oidc/exchange', body: { code } });
    expect(res.statusCode).toBe(200);
    const token = res.json().access_token as string;
    const me = await t.req({ method: 'GET', url: '/api/users/me', token });
    return {
      code: code as string,
      token,
      me: me.json() as { id: string; email: string; user_level: string },
    };
  }

  it('public-config names the button and the start address', async () => {
    const res = await t.req({ method: 'GET', url: '/api/public-config' });
    expect(res.json().oidc).toEqual({ label: 'Acme ID', start_url: '/api/auth/oidc/start' });
  });

  it('a first sign-in creates a waitlisted account', async () => {
    const { me } = await signIn('newcomer@elsewhere.example');
    expect(me).toMatchObject({ email: 'newcomer@elsewhere.example', user_level: 'waitlisted' });
  });

  it('an allowed domain starts as user, and signing in again finds the same account', async () => {
    const first = await signIn('ann@acme.example');
    expect(first.me.user_level).toBe('user');
    const corp = await signIn('bo@corp.example');
    expect(corp.me.user_level).toBe('user');
    const again = await signIn('ann@acme.example');
    expect(again.me.id).toBe(first.me.id);
  });

  /** An account a platform admin made (so its e-mail is verified here), whose password was then used. */
  async function verifiedAccount(level: string, email: string) {
    const admin = await t.createUser('admin');
    const made = await t.req({
      method: 'POST',
      url: '/api/users/',
      token: admin.token,
      body: { email, password: 'its-own-password-1', user_level: level },
    });
    expect(made.statusCode).toBe(201);
    expect(made.json().email_verified).toBe(true);
    const token = await t.login(email, 'its-own-password-1');
    return { id: made.json().id as string, token };
  }

  /** A live API key of the account (straight into the table: creating one is another module's rule). */
  async function seedKey(userId: string) {
    const id = randomUUID();
    await t.ctx.db
      .insertInto('api_keys')
      .values({
        id,
        user_id: userId,
        name: 'old key',
        prefix: `p${id.slice(0, 8)}`,
        secret_hash: 'x',
        scopes: '[]',
        created_at: new Date().toISOString(),
        last_used_at: null,
        expires_at: null,
        revoked_at: null,
      })
      .execute();
    return id;
  }

  const keyRevoked = async (id: string) =>
    (
      await t.ctx.db
        .selectFrom('api_keys')
        .select('revoked_at')
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
    ).revoked_at !== null;

  const identitiesOf = (userId: string) =>
    t.ctx.db.selectFrom('user_identities').selectAll().where('user_id', '=', userId).execute();

  it('auto-links a verified account whose password was used since, ending its other sessions and keys', async () => {
    const existing = await verifiedAccount('ceo', 'chief@elsewhere.example');
    const key = await seedKey(existing.id);
    const { me } = await signIn('chief@elsewhere.example');
    expect(me.id).toBe(existing.id);
    expect(me.user_level).toBe('ceo');
    expect(await identitiesOf(existing.id)).toHaveLength(1);
    expect((await t.req({ method: 'GET', url: '/api/users/me', token: existing.token })).statusCode).toBe(
      401,
    );
    expect(await keyRevoked(key)).toBe(true);
  });

  it('attack: victim@corp registered first by someone else, then the victim signs in with SSO', async () => {
    // The attacker signs up with the victim's address (no mailbox needed) and keeps the password.
    const reg = await t.req({
      method: 'POST',
      url: '/api/users/register',
      body: { email: 'victim@corp.example', password: 'attacker-pw', first_name: 'Vic', last_name: 'Tim' },
    });
    expect(reg.statusCode).toBe(201);
    expect(reg.json().email_verified).toBe(false);
    const attacker = await t.login('victim@corp.example', 'attacker-pw');
    const { url } = await throughProvider('victim@corp.example');
    // No session for the provider user, no link: the page asks for the account's password instead.
    expect(url.searchParams.get('sso')).toBeNull();
    const link = url.searchParams.get('sso_link');
    expect(link).toBeTruthy();
    expect(await identitiesOf(reg.json().id)).toHaveLength(0);
    // The attacker's session is untouched, and the victim (who lacks that password) cannot link.
    expect((await t.req({ method: 'GET', url: '/api/users/me', token: attacker })).statusCode).toBe(200);
    const wrong = await t.req({
      method: 'POST',
      url: '/api/auth/oidc/link',
      body: { code: link, password: 'a-guess-1' },
    });
    expect(wrong.statusCode).toBe(401);
    expect(await identitiesOf(reg.json().id)).toHaveLength(0);
  });

  it("attack: an SSO identity with a platform admin's e-mail never becomes that admin by itself", async () => {
    const admin = await verifiedAccount('admin', 'root@elsewhere.example');
    const { url } = await throughProvider('root@elsewhere.example');
    expect(url.searchParams.get('sso')).toBeNull();
    expect(url.searchParams.get('sso_link')).toBeTruthy();
    expect(await identitiesOf(admin.id)).toHaveLength(0);
    expect((await t.req({ method: 'GET', url: '/api/users/me', token: admin.token })).statusCode).toBe(200);
  });

  it("the account's password confirms a link once: other sessions and API keys end", async () => {
    const admin = await verifiedAccount('admin', 'owner@elsewhere.example');
    const key = await seedKey(admin.id);
    const { url } = await throughProvider('owner@elsewhere.example');
    const code = url.searchParams.get('sso_link');
    // The code of a link is not a sign-in code.
    const asExchange = await t.req({ method: 'POST', url: '/api/auth/oidc/exchange', body: { code } });
    expect(asExchange.statusCode).toBe(400);
    const ok = await t.req({
      method: 'POST',
      url: '/api/auth/oidc/link',
      body: { code, password: 'its-own-password-1' },
    });
    expect(ok.statusCode).toBe(200);
    const me = await t.req({ method: 'GET', url: '/api/users/me', token: ok.json().access_token });
    expect(me.json().id).toBe(admin.id);
    expect(await identitiesOf(admin.id)).toHaveLength(1);
    expect((await t.req({ method: 'GET', url: '/api/users/me', token: admin.token })).statusCode).toBe(401);
    expect(await keyRevoked(key)).toBe(true);
    const again = await t.req({
      method: 'POST',
      url: '/api/auth/oidc/link',
      body: { code, password: 'its-own-password-1' },
    });
    expect(again.statusCode).toBe(400);
    expect(again.json().detail).toBe(SSO_LINK_EXPIRED);
    // Linked now: the next sign-in goes straight in.
    expect((await signIn('owner@elsewhere.example')).me.id).toBe(admin.id);
  });

  it('start sets an HttpOnly, SameSite=Lax, 10-minute cookie with a hash of the state', async () => {
    const res = await fetch(`${base}/api/auth/oidc/start`, { redirect: 'manual' });
    const state = new URL(res.headers.get('location') ?? '').searchParams.get('state') ?? '';
    expect(state).toBeTruthy();
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('cc_oidc_state=')) ?? '';
    expect(cookie).toContain(`cc_oidc_state=${stateCookieValue(state)};`);
    expect(cookie).not.toContain(state);
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/; SameSite=Lax/);
    expect(cookie).toMatch(/; Max-Age=600/);
  });

  it('login CSRF: a callback in a browser without the state cookie is refused', async () => {
    // The attacker runs a sign-in to their own account and stops before the callback...
    const { browser, url } = await throughProvider('mallory@acme.example', atCallback);
    // ...then makes the victim's browser (no cookie) open it.
    const victim = await fetch(url.toString(), { redirect: 'manual' });
    const back = new URL(victim.headers.get('location') ?? '', base);
    expect(back.searchParams.get('sso')).toBeNull();
    expect(back.searchParams.get('sso_error')).toBe(SSO_OTHER_BROWSER);
    const made = await t.ctx.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'mallory@acme.example')
      .execute();
    expect(made).toEqual([]);
    // The browser that started it still finishes it.
    const own = new URL((await browser.fetch(url.toString())).headers.get('location') ?? '', base);
    expect(own.searchParams.get('sso')).toBeTruthy();
  });

  it('refuses an e-mail the provider did not verify', async () => {
    await t.createUser('admin', { email: 'boss@elsewhere.example' });
    const { url } = await throughProvider('unverified:boss@elsewhere.example');
    expect(url.searchParams.get('sso')).toBeNull();
    expect(url.searchParams.get('sso_error')).toBe(
      'Your identity provider did not confirm your e-mail address.',
    );
  });

  it('refuses a wrong state, and a code used twice', async () => {
    const { browser, url } = await throughProvider('state@acme.example', atCallback);
    const wrong = new URL(url);
    wrong.searchParams.set('state', 'not-the-state');
    const res = await browser.fetch(wrong.toString());
    const back = new URL(res.headers.get('location') ?? '', base);
    expect(back.pathname).toBe('/login');
    // Another state is not the one this browser's cookie holds.
    expect(back.searchParams.get('sso_error')).toBe(SSO_OTHER_BROWSER);
    // The real callback still works once; a replay of it does not (not even with the cookie put back).
    const ok = new URL((await browser.fetch(url.toString())).headers.get('location') ?? '', base);
    expect(ok.searchParams.get('sso')).toBeTruthy();
    const replay = new URL((await browser.fetch(url.toString())).headers.get('location') ?? '', base);
    expect(replay.searchParams.get('sso_error')).toBe(SSO_OTHER_BROWSER);
    const cookie = `cc_oidc_state=${stateCookieValue(url.searchParams.get('state') ?? '')}`;
    const withCookie = await fetch(url.toString(), { redirect: 'manual', headers: { cookie } });
    const replayed = new URL(withCookie.headers.get('location') ?? '', base);
    expect(replayed.searchParams.get('sso_error')).toBe(SSO_LINK_USED);
    const code = ok.searchParams.get('sso');
    expect((await t.req({ method: 'POST', url: '/api/auth/oidc/exchange', body: { code } })).statusCode).toBe(
      200,
    );
    const twice = await t.req({ method: 'POST', url: '/api/auth/oidc/exchange', body: { code } });
    expect(twice.statusCode).toBe(400);
    expect(twice.json().detail).toBe(SSO_LINK_USED);
  });

  it('refuses an ID token whose nonce is not the one this sign-in sent', async () => {
    const { browser, url } = await throughProvider('nonce@acme.example', atCallback);
    await t.ctx.db
      .updateTable('oidc_logins')
      .set({ nonce: 'another-nonce' })
      .where('state', '=', url.searchParams.get('state') ?? '')
      .execute();
    const back = new URL((await browser.fetch(url.toString())).headers.get('location') ?? '', base);
    expect(back.searchParams.get('sso_error')).toBe(SSO_FAILED);
    const made = await t.ctx.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'nonce@acme.example')
      .execute();
    expect(made).toEqual([]);
  });
});

apiSuite('single sign-on, not configured', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('public-config has no oidc and the routes answer 404', async () => {
    expect((await t.req({ method: 'GET', url: '/api/public-config' })).json().oidc).toBeUndefined();
    expect((await t.req({ method: 'GET', url: '/api/auth/oidc/start' })).statusCode).toBe(404);
    const ex = await t.req({ method: 'POST', url: '/api/auth/oidc/exchange', body: { code: 'x' } });
    expect(ex.statusCode).toBe(404);
  });
});
