import { afterAll, beforeAll, expect, it } from 'vitest';
import { apiSuite, createTestApp, type TestApp } from '../../../test/helpers.ts';
import { startOidcProvider, TestBrowser, type TestOidcProvider } from '../../../test/oidc-provider.ts';
import { SSO_FAILED, SSO_LINK_USED } from './oidc.service.ts';

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

  it('links an existing account with the same verified e-mail', async () => {
    const existing = await t.createUser('ceo', { email: 'chief@elsewhere.example' });
    const { me } = await signIn('chief@elsewhere.example');
    expect(me.id).toBe(existing.id);
    expect(me.user_level).toBe('ceo');
    const links = await t.ctx.db
      .selectFrom('user_identities')
      .selectAll()
      .where('user_id', '=', existing.id)
      .execute();
    expect(links).toHaveLength(1);
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
    expect(back.searchParams.get('sso_error')).toBe(SSO_LINK_USED);
    // The real callback still works once; a replay of it does not.
    const ok = new URL((await browser.fetch(url.toString())).headers.get('location') ?? '', base);
    expect(ok.searchParams.get('sso')).toBeTruthy();
    const replay = new URL((await browser.fetch(url.toString())).headers.get('location') ?? '', base);
    expect(replay.searchParams.get('sso_error')).toBe(SSO_LINK_USED);
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
