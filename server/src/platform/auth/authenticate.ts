import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { TableClock } from '../../db/table-clock.ts';
import type { Db } from '../../db/index.ts';
import { forbidden, unauthorized } from '../errors.ts';
import { ReadCache, readThrough } from '../read-cache.ts';
import { redeemStreamTicket } from '../realtime/stream-tickets.ts';
import { type ApiKeyCaller, isApiKeyToken, keyMayCall, resolveApiKey } from './api-keys.ts';
import { rememberMemberships } from './caller-memberships.ts';
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
    /** Set when the caller authenticated with a personal API key rather than a session. */
    apiKey: ApiKeyCaller | null;
  }
}

export function bearerToken(req: FastifyRequest): string | null {
  const h = req.headers.authorization;
  if (h && h.slice(0, 7).toLowerCase() === 'bearer ') return h.slice(7).trim() || null;
  return null;
}

type SessionUser = NonNullable<Awaited<ReturnType<typeof findActiveSessionUser>>>;

/** What a cached session lookup is read from (with the user's memberships). */
const SESSION_TABLES = ['sessions', 'users', 'organization_members'];

/** How the auth hook reads sessions: the database, and the read cache where there is one. */
export interface SessionReader {
  db: Db;
  signer: TokenSigner;
  cache: ReadCache<SessionUser> | null;
  /** When tables changed: the memberships read with a session hold while theirs has not. */
  changes: TableClock | null;
}

export function sessionReader(db: Db, signer: TokenSigner, changes: TableClock | null, bytes: number) {
  // A session row with its user is about 300 bytes; sessions take a sixteenth of the budget.
  const cache = changes && bytes > 0 ? new ReadCache<SessionUser>(changes, Math.ceil(bytes / 16)) : null;
  return { db, signer, cache, changes } satisfies SessionReader;
}

/** The live session's user (expiry checked on every call, cached or not), or null. */
async function sessionUser(r: SessionReader, sessionId: string, userId: string) {
  const stamp = r.changes?.stamp() ?? 0;
  const row = await readThrough(r.cache, `${sessionId}\n${userId}`, SESSION_TABLES, 300, () =>
    findActiveSessionUser(r.db, sessionId, userId),
  );
  if (!row || row.expires_at <= new Date().toISOString()) return null;
  const { expires_at: _e, memberships, ...user } = row;
  rememberMemberships(user, memberships, r.changes, stamp);
  return { user, sessionId };
}

/** Resolves a token to its live session's user, or null (expired, revoked, deleted user, bad signature). */
export async function resolveToken(
  r: SessionReader,
  token: string,
): Promise<{ user: AuthUser; sessionId: string } | null> {
  const claims = await r.signer.verify(token);
  if (!claims) return null;
  return sessionUser(r, claims.sid, claims.sub);
}

/** `?token=` of a stream route: a single-use ticket (`st_…`) or, for API clients, an access token. */
async function resolveStreamToken(
  r: SessionReader,
  token: string,
): Promise<{ user: AuthUser; sessionId: string } | null> {
  if (!token.startsWith('st_')) return resolveToken(r, token);
  const ticket = await redeemStreamTicket(r.db, token);
  if (!ticket) return null;
  return sessionUser(r, ticket.session_id, ticket.user_id);
}

export const authPlugin = fp(
  async (app: FastifyInstance, opts: { sessions: SessionReader }) => {
    app.decorateRequest('user', null);
    app.decorateRequest('sessionId', null);
    app.decorateRequest('apiKey', null);
    // onRequest, not preHandler: a caller without a valid token learns nothing about a route (not
    // even its body's field names from a 422) and costs no body parsing. `req.query` is parsed here.
    app.addHook('onRequest', async (req) => {
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
      if (isApiKeyToken(token)) {
        const keyed = await resolveApiKey(opts.sessions.db, token);
        if (!keyed) throw unauthorized('This API key is not valid.');
        if (!keyMayCall(keyed.key, req.method, route)) {
          throw forbidden('This API key does not allow this call.');
        }
        req.user = keyed.user;
        req.apiKey = keyed.key;
        if (level === 'admin' && keyed.user.user_level !== 'admin') {
          throw forbidden('Only administrators can do this.');
        }
        return;
      }
      const resolved = await resolve(opts.sessions, token);
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
