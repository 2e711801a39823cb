import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

/**
 * A real OpenID Connect provider (the `oidc-provider` package) on 127.0.0.1 for the tests, with its
 * development login page: any login name signs in as the account of that name. A login of the form
 * `name@domain` is that e-mail, verified; `unverified:name@domain` is the same e-mail, not verified.
 * The HTTP server is listening before the provider exists, so the app can be configured with the
 * issuer first and the client registered once the app's callback address is known.
 */
export interface TestOidcProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Registers the app's callback and starts answering. */
  serve(redirectUri: string): void;
  close(): Promise<void>;
}

export async function startOidcProvider(): Promise<TestOidcProvider> {
  const server: Server = createServer((_req, res) => {
    res.statusCode = 503;
    res.end('not ready');
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientId = 'command-centre';
  const clientSecret = 'test-client-secret-0123456789';
  return {
    issuer,
    clientId,
    clientSecret,
    serve(redirectUri: string) {
      const provider = new Provider(issuer, {
        clients: [
          {
            client_id: clientId,
            client_secret: clientSecret,
            redirect_uris: [redirectUri],
            grant_types: ['authorization_code'],
            response_types: ['code'],
          },
        ],
        claims: {
          openid: ['sub'],
          email: ['email', 'email_verified'],
          profile: ['given_name', 'family_name'],
        },
        scopes: ['openid', 'email', 'profile'],
        pkce: { required: () => true },
        cookies: { keys: ['test-cookie-key-0123456789abcdef'] },
        features: { devInteractions: { enabled: true } },
        async findAccount(_ctx, id) {
          const unverified = id.startsWith('unverified:');
          const email = unverified ? id.slice('unverified:'.length) : id;
          return {
            accountId: id,
            async claims() {
              return {
                sub: `sub-${id}`,
                email,
                email_verified: !unverified,
                given_name: email.split('@')[0],
                family_name: 'Sso',
              };
            },
          };
        },
      });
      provider.on('server_error', () => {});
      server.removeAllListeners('request');
      server.on('request', provider.callback());
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/** A browser's cookie jar and redirect following, enough to walk the provider's pages. */
export class TestBrowser {
  private readonly cookies = new Map<string, string>();

  private remember(res: Response) {
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const i = pair.indexOf('=');
      const name = pair.slice(0, i).trim();
      const value = pair.slice(i + 1).trim();
      if (value === '' || /expires=Thu, 01 Jan 1970/i.test(c)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  async fetch(url: string, init: { method?: string; form?: Record<string, string> } = {}): Promise<Response> {
    const headers: Record<string, string> = {};
    if (this.cookies.size) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    if (init.form) headers['content-type'] = 'application/x-www-form-urlencoded';
    const res = await fetch(url, {
      method: init.method ?? 'GET',
      headers,
      body: init.form ? new URLSearchParams(init.form).toString() : undefined,
      redirect: 'manual',
    });
    this.remember(res);
    return res;
  }

  /** Follows redirects from `url` until a page that is not a redirect, or one whose address `stop` accepts. */
  async follow(url: string, stop: (u: URL) => boolean = () => false): Promise<{ url: URL; res: Response }> {
    let current = new URL(url);
    for (let i = 0; i < 20; i++) {
      if (stop(current)) return { url: current, res: new Response(null) };
      const res = await this.fetch(current.toString());
      const loc = res.headers.get('location');
      if (res.status < 300 || res.status >= 400 || !loc) return { url: current, res };
      await res.arrayBuffer();
      current = new URL(loc, current);
    }
    throw new Error('too many redirects');
  }

  /** Submits the provider's current interaction form (login or consent) and follows on. */
  async submit(page: { url: URL; res: Response }, form: Record<string, string>, stop: (u: URL) => boolean) {
    const html = await page.res.text();
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    if (!action) throw new Error(`no form on ${page.url}: ${html.slice(0, 200)}`);
    const res = await this.fetch(new URL(action, page.url).toString(), { method: 'POST', form });
    const loc = res.headers.get('location');
    if (!loc) throw new Error(`form answered ${res.status}`);
    return this.follow(new URL(loc, page.url).toString(), stop);
  }
}
