import { ZErrorBody, ZTokenResponse } from '@cc/contract';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../platform/context.ts';
import { AppError, notFound } from '../../platform/errors.ts';
import { viaOf } from '../activity/activity.ledger.ts';
import { confirmLink } from './oidc-linking.ts';
import { exchangeCode, finishSignIn, SSO_FAILED, startSignIn, stateCookieValue } from './oidc.service.ts';

export const OIDC_START_PATH = '/api/auth/oidc/start';
const CALLBACK_PATH = '/api/auth/oidc/callback';

/** This server's own address as the browser sees it (behind a proxy: with TRUST_PROXY). */
const originOf = (req: FastifyRequest) => `${req.protocol}://${req.host}`;

/** Login CSRF (issue 46 row 2): the browser that starts a sign-in carries the state's hash for 10 minutes. */
const STATE_COOKIE = 'cc_oidc_state';
const STATE_COOKIE_SECONDS = 600;

function stateCookie(req: FastifyRequest, value: string, maxAge: number): string {
  const secure = req.protocol === 'https' ? '; Secure' : '';
  return `${STATE_COOKIE}=${value}; Path=/api/auth/oidc; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${secure}`;
}

function readCookie(req: FastifyRequest, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const i = part.indexOf('=');
    if (i > 0 && part.slice(0, i).trim() === name) return part.slice(i + 1).trim();
  }
  return undefined;
}

/** Back to the login page, with a one-time code to exchange or the reason the sign-in failed. */
const toLogin = (params: Record<string, string>) => `/login?${new URLSearchParams(params).toString()}`;

/**
 * Single sign-on with OpenID Connect (authorization code with PKCE). The browser goes to the start
 * route, the provider sends it back to the callback, which sends it to the login page with a one-time
 * code; the page exchanges that code for a session like a password sign-in (no token in a URL).
 */
export const oidcRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const authLimit = { max: ctx.config.rateLimitAuthMax, timeWindow: '1 minute' };
  const configured = () => {
    if (!ctx.config.oidc) throw notFound('Single sign-on is not configured.');
  };

  app.get(
    OIDC_START_PATH,
    {
      config: { auth: 'public', rateLimit: authLimit },
      schema: { tags: ['auth'], summary: 'Start single sign-on: redirects to the identity provider' },
    },
    async (req, reply) => {
      configured();
      try {
        const { url, state } = await startSignIn(ctx, `${originOf(req)}${CALLBACK_PATH}`);
        reply.header('set-cookie', stateCookie(req, stateCookieValue(state), STATE_COOKIE_SECONDS));
        return reply.redirect(url);
      } catch (err) {
        if (err instanceof AppError) throw err;
        req.log.warn({ err }, 'single sign-on: the identity provider is unreachable');
        return reply.redirect(toLogin({ sso_error: SSO_FAILED }));
      }
    },
  );

  app.get(
    CALLBACK_PATH,
    {
      config: { auth: 'public', rateLimit: authLimit },
      schema: {
        tags: ['auth'],
        summary: 'Where the identity provider sends the browser back; redirects to the login page',
        querystring: z.object({}).passthrough(),
      },
    },
    async (req, reply) => {
      configured();
      const url = new URL(req.url, originOf(req));
      const cookie = readCookie(req, STATE_COOKIE);
      // Spent once its own sign-in comes back; a stray callback (another state) leaves it for the real one.
      const state = url.searchParams.get('state') ?? '';
      if (state && cookie === stateCookieValue(state)) reply.header('set-cookie', stateCookie(req, '', 0));
      try {
        const done = await finishSignIn(ctx, url, cookie, viaOf(req));
        return reply.redirect(toLogin('code' in done ? { sso: done.code } : { sso_link: done.link }));
      } catch (err) {
        const detail = err instanceof AppError && typeof err.detail === 'string' ? err.detail : SSO_FAILED;
        if (!(err instanceof AppError)) req.log.warn({ err }, 'single sign-on failed');
        return reply.redirect(toLogin({ sso_error: detail }));
      }
    },
  );

  app.post(
    '/api/auth/oidc/link',
    {
      config: { auth: 'public', rateLimit: authLimit },
      schema: {
        tags: ['auth'],
        summary:
          'Link single sign-on to the existing account with its e-mail: its password, once; then a session',
        body: z.strictObject({
          code: z.string().min(1).max(200),
          password: z.string().min(1, 'Password is required').max(256),
        }),
        response: { 200: ZTokenResponse, 400: ZErrorBody, 401: ZErrorBody, 404: ZErrorBody, 429: ZErrorBody },
      },
    },
    async (req) => {
      configured();
      return confirmLink(ctx, req.body, req.headers['user-agent'] ?? null, viaOf(req));
    },
  );

  app.post(
    '/api/auth/oidc/exchange',
    {
      config: { auth: 'public', rateLimit: authLimit },
      schema: {
        tags: ['auth'],
        summary: 'Exchange the one-time code of a single sign-on for a session',
        body: z.strictObject({ code: z.string().min(1).max(200) }),
        response: { 200: ZTokenResponse, 401: ZErrorBody, 404: ZErrorBody, 429: ZErrorBody },
      },
    },
    async (req) => {
      configured();
      return exchangeCode(ctx, req.body.code, req.headers['user-agent'] ?? null, viaOf(req));
    },
  );
};
