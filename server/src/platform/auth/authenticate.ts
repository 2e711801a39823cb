import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Db } from '../../db/index.ts';
import { forbidden, unauthorized } from '../errors.ts';
import { redeemStreamTicket } from '../realtime/stream-tickets.ts';
import { findActiveSessionUser } from './sessions.repository.ts';
import type { TokenSigner } from './tokens.ts';

export interface AuthUser {
  id: string;
  email: string;
  first_name: string | null;
  last_name: string | null;
  user_level: string;
  organization_id: string | null;
}

/**
 * Who may call a route:
 * - public: anyone;
 * - any: any signed-in user, waitlisted included (only /api/users/me and logout);
 * - active: signed-in and not waitlisted (the default for every /api route);
 * - admin: the platform administrator.
 */
export type AuthLevel = 'public' | 'any' | 'active' | 'admin';

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: AuthLevel;
    /** SSE routes: EventSource cannot send headers, so `?token=` (a stream ticket or an access token) is accepted too. */
    stream?: boolean;
  }
  interface FastifyRequest {
    user: AuthUser | null;
    sessionId: string | null;
  }
}

export function bearerToken(req: FastifyRequest): string | null {
  const h = req.headers.authorization;
  if (h && h.slice(0, 7).toLowerCase() === 'bearer ') return h.slice(7).trim() || null;
  return null;
}

/** Resolves a token to its live session's user, or null (expired, revoked, deleted user, bad signature). */
export async function resolveToken(
  db: Db,
  signer: TokenSigner,
  token: string,
): Promise<{ user: AuthUser; sessionId: string } | null> {
  const claims = await signer.verify(token);
  if (!claims) return null;
  const row = await findActiveSessionUser(db, claims.sid, claims.sub);
  if (!row || row.expires_at <= new Date().toISOString()) return null;
  const { expires_at: _e, ...user } = row;
  return { user, sessionId: claims.sid };
}

/** `?token=` of a stream route: a single-use ticket (`st_…`) or, for API clients, an access token. */
async function resolveStreamToken(
  db: Db,
  signer: TokenSigner,
  token: string,
): Promise<{ user: AuthUser; sessionId: string } | null> {
  if (!token.startsWith('st_')) return resolveToken(db, signer, token);
  const ticket = await redeemStreamTicket(db, token);
  if (!ticket) return null;
  const row = await findActiveSessionUser(db, ticket.session_id, ticket.user_id);
  if (!row || row.expires_at <= new Date().toISOString()) return null;
  const { expires_at: _e, ...user } = row;
  return { user, sessionId: ticket.session_id };
}

export const authPlugin = fp(
  async (app: FastifyInstance, opts: { db: Db; signer: TokenSigner }) => {
    app.decorateRequest('user', null);
    app.decorateRequest('sessionId', null);
    app.addHook('preHandler', async (req) => {
      const route = req.routeOptions.url ?? '';
      // Routes default to 'active' under /api; the API docs and non-API routes are public.
      const level: AuthLevel =
        req.routeOptions.config?.auth ??
        (route.startsWith('/api/') && !route.startsWith('/api/docs') ? 'active' : 'public');
      if (level === 'public') return;
      let token = bearerToken(req);
      let resolve = resolveToken;
      if (!token && req.routeOptions.config?.stream) {
        const q = (req.query as Record<string, unknown> | undefined)?.token;
        if (typeof q === 'string' && q) {
          token = q;
          resolve = resolveStreamToken;
        }
      }
      if (!token) throw unauthorized('Not authenticated');
      const resolved = await resolve(opts.db, opts.signer, token);
      if (!resolved) throw unauthorized('Your session has expired. Please log in again.');
      req.user = resolved.user;
      req.sessionId = resolved.sessionId;
      if (level === 'any') return;
      if (resolved.user.user_level === 'waitlisted') {
        throw forbidden('Your account is on the waitlist. You will be notified when it is approved.');
      }
      if (level === 'admin' && resolved.user.user_level !== 'admin') {
        throw forbidden('Only administrators can do this.');
      }
    });
  },
  { name: 'auth' },
);

/** The signed-in user of a route whose auth level guarantees one. */
export function currentUser(req: FastifyRequest): AuthUser {
  if (!req.user) throw unauthorized();
  return req.user;
}
