import { ZErrorBody, ZRegisterRequest, ZTokenRequest, ZTokenResponse, ZUser } from '@cc/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../platform/context.ts';
import { register } from '../users/users.service.ts';
import { STREAM_TICKET_TTL_SECONDS, issueStreamTicket } from '../../platform/realtime/stream-tickets.ts';
import { currentUser } from '../../platform/auth/authenticate.ts';
import { limitMessages } from '../../platform/limits/limit-messages.ts';
import { enforceLimit } from '../../platform/limits/limits.ts';
import { viaOf } from '../activity/activity.ledger.ts';
import { login, logout, logoutEverywhere } from './auth.service.ts';

export const authRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  // Per-IP limits on the two endpoints that guessers and bots hit; accounts have their own brake.
  const authLimit = { max: ctx.config.rateLimitAuthMax, timeWindow: '1 minute' };

  app.post(
    '/api/auth/token',
    {
      config: { auth: 'public', rateLimit: authLimit },
      schema: {
        tags: ['auth'],
        summary: 'Sign in (form-encoded username = e-mail, password, remember_me)',
        consumes: ['application/x-www-form-urlencoded'],
        body: ZTokenRequest,
        response: { 200: ZTokenResponse, 401: ZErrorBody, 429: ZErrorBody },
      },
    },
    async (req) => login(ctx, req.body, req.headers['user-agent'] ?? null, viaOf(req)),
  );

  app.post(
    '/api/auth/logout',
    {
      config: { auth: 'any' },
      schema: { tags: ['auth'], summary: 'Revoke the current session', response: { 204: z.null() } },
    },
    async (req, reply) => {
      if (req.sessionId) await logout(ctx, req.sessionId, req.user?.id ?? null, viaOf(req));
      return reply.code(204).send(null);
    },
  );

  // Not open to the waitlist ('active'): a waitlisted account has nothing a key or session could reach.
  app.post(
    '/api/auth/logout-everywhere',
    {
      schema: {
        tags: ['auth'],
        summary: "End every session of the account (this one too) and revoke all of the account's API keys",
        response: { 204: z.null(), 401: ZErrorBody, 403: ZErrorBody },
      },
    },
    async (req, reply) => {
      await logoutEverywhere(ctx, currentUser(req).id, viaOf(req));
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/api/auth/stream-ticket',
    {
      schema: {
        tags: ['auth'],
        summary: 'A single-use ticket (valid 60 s) to open one event stream with ?token=',
        response: {
          200: z.object({ ticket: z.string(), expires_in: z.number().int() }),
          401: ZErrorBody,
          429: ZErrorBody,
        },
      },
    },
    async (req, reply) => {
      const user = currentUser(req);
      const { streamTickets } = ctx.limits;
      enforceLimit(req, reply, streamTickets, limitMessages.streamTickets(streamTickets.max));
      const ticket = await issueStreamTicket(ctx.db, user.id, req.sessionId as string);
      return { ticket, expires_in: STREAM_TICKET_TTL_SECONDS };
    },
  );

  app.post(
    '/api/users/register',
    {
      config: { auth: 'public', rateLimit: authLimit },
      schema: {
        tags: ['auth'],
        summary: 'Sign up: always creates a waitlisted user',
        body: ZRegisterRequest,
        response: { 201: ZUser, 409: ZErrorBody, 422: ZErrorBody },
      },
    },
    async (req, reply) => reply.code(201).send(await register(ctx, req.body, viaOf(req))),
  );
};
