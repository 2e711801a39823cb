import { ZErrorBody, ZTokenResponse } from '@cc/contract';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../platform/context.ts';
import { AppError, notFound } from '../../platform/errors.ts';
import { viaOf } from '../activity/activity.ledger.ts';
import { exchangeCode, finishSignIn, SSO_FAILED, startSignIn } from './oidc.service.ts';

export const OIDC_START_PATH = '/api/auth/oidc/start';
const CALLBACK_PATH = '/api/auth/oidc/callback';

/** This server's own address as the browser sees it (behind a proxy: with TRUST_PROXY). */
const originOf = (req: FastifyRequest) => `${req.protocol}://${req.host}`;

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
        return reply.redirect(await startSignIn(ctx, `${originOf(req)}${CALLBACK_PATH}`));
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
      try {
        const code = await finishSignIn(ctx, new URL(req.url, originOf(req)), viaOf(req));
        return reply.redirect(toLogin({ sso: code }));
      } catch (err) {
        const detail = err instanceof AppError && typeof err.detail === 'string' ? err.detail : SSO_FAILED;
        if (!(err instanceof AppError)) req.log.warn({ err }, 'single sign-on failed');
        return reply.redirect(toLogin({ sso_error: detail }));
      }
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
