import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { SESSION_TTL_SECONDS, type TTokenResponse } from '@cc/contract';
import * as oidc from 'openid-client';
import { nowIso } from '../../db/index.ts';
import type { AppContext } from '../../platform/context.ts';
import { AppError, badRequest, notFound } from '../../platform/errors.ts';
import type { ActivityVia } from '../activity/activity.ledger.ts';
import { openSession } from './auth.service.ts';
import { accountFor } from './oidc-linking.ts';
import * as repo from './oidc.repository.ts';

/** How long the provider may take to send the person back, and the web to exchange its code. */
const LOGIN_TTL_MS = 10 * 60_000;
const EXCHANGE_TTL_MS = 2 * 60_000;

export const SSO_LINK_USED = 'This sign-in link has expired or was already used. Please try again.';
export const SSO_FAILED = 'Single sign-on failed. Please try again.';
export const SSO_UNVERIFIED = 'Your identity provider did not confirm your e-mail address.';
export const SSO_OTHER_BROWSER =
  'This sign-in was not started in this browser (or took longer than 10 minutes). Please try again.';

/** A refusal of the sign-in that the login page shows. */
export class SsoError extends AppError {
  constructor(detail: string) {
    super(401, detail);
  }
}

const discovered = new WeakMap<object, Promise<oidc.Configuration>>();

/** The provider's metadata, fetched once per configuration (a failure is retried on the next sign-in). */
function providerConfig(ctx: AppContext): Promise<oidc.Configuration> {
  const cfg = ctx.config.oidc;
  if (!cfg) throw notFound('Single sign-on is not configured.');
  let p = discovered.get(cfg);
  if (!p) {
    const url = new URL(cfg.issuerUrl);
    // Plain HTTP only for a provider on this machine (development and the tests' own provider).
    const local = url.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
    p = oidc.discovery(url, cfg.clientId, cfg.clientSecret, undefined, {
      execute: local ? [oidc.allowInsecureRequests] : [],
    });
    p.catch(() => discovered.delete(cfg));
    discovered.set(cfg, p);
  }
  return p;
}

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/**
 * GET /api/auth/oidc/start: remembers the PKCE verifier, state and nonce, and answers the provider's URL
 * and the state (the route puts its hash in a cookie of this browser).
 */
export async function startSignIn(
  ctx: AppContext,
  redirectUri: string,
): Promise<{ url: string; state: string }> {
  const config = await providerConfig(ctx);
  const code_verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  await repo.purgeOidcLogins(ctx.db, new Date(Date.now() - LOGIN_TTL_MS).toISOString());
  await repo.insertOidcLogin(ctx.db, {
    state,
    code_verifier,
    nonce,
    created_at: nowIso(),
    user_id: null,
    exchange_hash: null,
  });
  const url = oidc
    .buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      scope: 'openid email profile',
      code_challenge: await oidc.calculatePKCECodeChallenge(code_verifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    })
    .toString();
  return { url, state };
}

/** What the state cookie holds: the state's hash, so the cookie alone names no sign-in. */
export const stateCookieValue = (state: string) => sha256(state);

/**
 * Login CSRF: a callback is only taken in the browser that started the sign-in (its cookie holds the
 * state's hash). Without it, someone could send a victim's browser a callback of their own sign-in.
 */
export function assertSameBrowser(state: string, cookieValue: string | undefined): void {
  const expected = Buffer.from(stateCookieValue(state));
  const got = Buffer.from(cookieValue ?? '');
  if (!state || got.length !== expected.length || !timingSafeEqual(got, expected)) {
    throw new SsoError(SSO_OTHER_BROWSER);
  }
}

/**
 * GET /api/auth/oidc/callback: checks the browser's state cookie and the answer (state, PKCE, nonce,
 * the ID token's issuer and audience), finds or makes the account, and returns a one-time code for the
 * web to exchange, or (`link`) the code of the page that asks for an existing account's password.
 */
export async function finishSignIn(
  ctx: AppContext,
  currentUrl: URL,
  stateCookie: string | undefined,
  via: ActivityVia,
): Promise<{ code: string } | { link: string }> {
  const state = currentUrl.searchParams.get('state') ?? '';
  assertSameBrowser(state, stateCookie);
  const config = await providerConfig(ctx);
  const started = state
    ? await repo.takeOidcLogin(ctx.db, state, new Date(Date.now() - LOGIN_TTL_MS).toISOString())
    : null;
  if (!started) throw new SsoError(SSO_LINK_USED);
  let claims: oidc.IDToken | undefined;
  let profile: Record<string, unknown>;
  try {
    const tokens = await oidc.authorizationCodeGrant(config, currentUrl, {
      pkceCodeVerifier: started.code_verifier,
      expectedState: state,
      expectedNonce: started.nonce,
      idTokenExpected: true,
    });
    claims = tokens.claims();
    if (!claims) throw new SsoError(SSO_FAILED);
    // Providers that follow the specification to the letter put e-mail and names in UserInfo only.
    profile =
      typeof claims.email === 'string'
        ? claims
        : await oidc.fetchUserInfo(config, tokens.access_token, claims.sub);
  } catch {
    throw new SsoError(SSO_FAILED);
  }
  const email = typeof profile.email === 'string' ? profile.email.trim().toLowerCase() : '';
  if (!email || profile.email_verified !== true) throw new SsoError(SSO_UNVERIFIED);
  const outcome = await accountFor(ctx, { issuer: claims.iss, subject: claims.sub }, email, profile, via);
  if ('linkCode' in outcome) return { link: outcome.linkCode };
  const userId = outcome.userId;
  const code = randomBytes(32).toString('base64url');
  await repo.insertExchange(ctx.db, {
    state: randomUUID(),
    code_verifier: '',
    nonce: '',
    created_at: nowIso(),
    user_id: userId,
    exchange_hash: sha256(code),
  });
  return { code };
}

/** POST /api/auth/oidc/exchange: the one-time code becomes a session, once. */
export async function exchangeCode(
  ctx: AppContext,
  code: string,
  userAgent: string | null,
  via: ActivityVia,
): Promise<TTokenResponse> {
  const userId = await repo.takeExchange(
    ctx.db,
    sha256(code),
    new Date(Date.now() - EXCHANGE_TTL_MS).toISOString(),
  );
  // 400 like an OAuth token endpoint's invalid_grant: the code is spent, unknown or too old.
  if (!userId) throw badRequest(SSO_LINK_USED);
  return openSession(ctx, userId, SESSION_TTL_SECONDS, userAgent, 'Signed in with single sign-on', via);
}
