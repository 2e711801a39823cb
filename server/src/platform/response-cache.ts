import type { FastifyInstance, FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';
import type { TableClock } from '../db/table-clock.ts';
import { ReadCache } from './read-cache.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * A GET whose 200 body depends only on the caller and the URL, read from these tables: the body
     * is kept per caller, URL and UTC day and served again while none of them changed (see TableClock).
     * `users` is always added: the caller's own row (their level) shapes every response.
     */
    cache?: readonly string[];
  }
}

interface Pending {
  key: string;
  stamp: number;
  tables: readonly string[];
  /** A hit: the body the route's handler answers with (see onRoute). */
  hit?: Buffer;
  /** This request is the one reading its key's page: tells the requests waiting for it (see preHandler). */
  finish?: () => void;
}

/** The longest a request waits for another's read of the same page before reading it itself. */
const WAIT_FOR_READER_MS = 1000;

const kPending = Symbol('responseCache');
type CachingRequest = FastifyRequest & { [kPending]?: Pending };

/**
 * Serves the JSON body of a `config.cache` GET route from memory while every table it was read from
 * is unchanged since it was read. The stamp is taken when the request arrives, before authentication
 * reads the caller, so nothing read for the response predates it. On PostgreSQL the request first
 * learns what other instances committed (PgChangeFeed).
 */
export function registerResponseCache(app: FastifyInstance, changes: TableClock | null, bytes: number) {
  if (!changes || bytes <= 0) return;
  if (changes.needsSync) {
    // PostgreSQL: before any stamp (this route's, the session lookup's), learn what every instance
    // committed up to now, so nothing written before this request arrived is served stale.
    app.addHook('onRequest', (req, _reply, done) => {
      if (!req.url.startsWith('/api/')) return done();
      (changes.sync() as Promise<void>).then(() => done(), done);
    });
  }
  // Pages get most of the budget; sessions (authenticate.ts) and memberships (app.ts) have the rest.
  // Bodies are kept encoded: a hit writes the bytes as they are.
  const cache = new ReadCache<Buffer>(changes, Math.floor((bytes * 59) / 64));
  // Pages being read now, by key. When a write invalidates a busy page, the requests behind the first
  // miss wait for its read and look again instead of all reading the same page at once.
  const reading = new Map<string, Promise<void>>();

  app.addHook('onRoute', (route) => {
    const tables = route.config?.cache;
    if (!tables) return;
    // Fastify adds a HEAD route beside each GET; only GET responses are kept.
    const methods = [route.method].flat();
    if (methods.some((m) => m !== 'GET' && m !== 'HEAD')) {
      throw new Error(`config.cache is for GET routes (${route.url})`);
    }
    route.config = { ...route.config, cache: [...new Set(['users', ...tables])] };
    const handler = route.handler as RouteHandlerMethod;
    // A hit is answered here, by the route's handler, never by a hook: a hook that sends and returns
    // lets Fastify run the handler anyway when the client has gone meanwhile (the reply never ended),
    // and its second send logged "Reply was already sent" (issue 47 item 4).
    route.handler = async function (this: FastifyInstance, req: FastifyRequest, reply: FastifyReply) {
      const pending = (req as CachingRequest)[kPending];
      if (pending?.hit !== undefined) {
        reply.type('application/json; charset=utf-8');
        return pending.hit;
      }
      return handler.call(this, req, reply);
    } as RouteHandlerMethod;
  });

  app.addHook('onRequest', (req, _reply, done) => {
    const tables = req.routeOptions.config?.cache;
    if (tables && req.method === 'GET') {
      (req as CachingRequest)[kPending] = { key: '', stamp: changes.stamp(), tables };
    }
    done();
  });

  app.addHook('preHandler', async (req, reply) => {
    const pending = (req as CachingRequest)[kPending];
    if (!pending || !req.user) return;
    // The UTC day is part of the key: a page may depend on it (a KPI turns stale on a given day), and
    // no write marks that, so yesterday's pages are never served today.
    const key = `${req.user.id}\n${new Date().toISOString().slice(0, 10)}\n${req.url}`;
    pending.key = key;
    let body = cache.get(key);
    const under = body === undefined ? reading.get(key) : undefined;
    if (under) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([under, new Promise((r) => (timer = setTimeout(r, WAIT_FOR_READER_MS)))]);
      clearTimeout(timer);
      // Kept only if still current (ReadCache.set / get): a write seen since makes this a miss too.
      body = cache.get(key);
    }
    if (body === undefined && !reading.has(key)) {
      let resolve: () => void = () => {};
      const done = new Promise<void>((r) => {
        resolve = r;
      });
      reading.set(key, done);
      pending.finish = () => {
        if (reading.get(key) === done) reading.delete(key);
        resolve();
      };
      // Whatever becomes of this request (an error, a closed connection), the waiters go on.
      reply.raw.once('close', pending.finish);
    }
    reply.header('x-cache', body === undefined ? 'miss' : 'hit');
    if (body === undefined) return;
    pending.hit = body;
  });

  app.addHook('onSend', async (req, reply, payload) => {
    const pending = (req as CachingRequest)[kPending];
    try {
      return keep(reply, payload, pending);
    } finally {
      pending?.finish?.();
    }
  });

  /** Keeps a fresh 200 body; returns the payload to send. */
  function keep(reply: FastifyReply, payload: unknown, pending: Pending | undefined) {
    if (!pending?.key || pending.hit || reply.statusCode !== 200 || typeof payload !== 'string')
      return payload;
    const body = Buffer.from(payload);
    cache.set(pending.key, pending.stamp, pending.tables, body, body.length);
    return body;
  }
}
