import type { FastifyInstance } from 'fastify';

/** Seconds a client (or the proxy) should wait before retrying a request refused while draining. */
export const DRAIN_RETRY_AFTER_S = 5;
export const DRAIN_DETAIL = 'The server is restarting. Please retry.';
/** The liveness route, answered as usual while draining. */
export const LIVENESS_PATH = '/healthz';

export interface Drain {
  isDraining(): boolean;
  /**
   * Drains the server: from now on every request (on an open connection or a new one: the server keeps
   * listening) gets 503 with Retry-After and Connection: close, while the requests already running
   * (chat replies included) may finish for up to `graceMs`. Resolves when they have, or at the deadline.
   */
  start(graceMs: number): Promise<void>;
}

/**
 * The drain gate of an app: must be registered first, so a refused request never reaches authentication
 * or the body parser. Event streams (`…/events`) are not waited for: they never end by themselves and
 * are ended when the app closes (the browser reconnects and resumes from its Last-Event-ID).
 */
export function registerDrainGate(app: FastifyInstance): Drain {
  let draining = false;
  let inFlight = 0;
  let idle: (() => void) | null = null;

  app.addHook('onRequest', async (req, reply) => {
    reply.header('x-request-id', req.id);
    // Liveness stays 200 while the process lives: a supervisor must not kill an instance that is
    // draining on purpose (readiness, /readyz, is what turns 503 and takes it out of rotation).
    if (draining && req.routeOptions.url !== LIVENESS_PATH)
      return reply
        .code(503)
        .header('retry-after', String(DRAIN_RETRY_AFTER_S))
        .header('connection', 'close')
        .send({ detail: DRAIN_DETAIL });
    if (req.routeOptions.url?.endsWith('/events')) return;
    inFlight++;
    // 'close' fires once per response: answered, failed or abandoned by the client.
    reply.raw.once('close', () => {
      inFlight--;
      if (inFlight === 0) idle?.();
    });
  });

  return {
    isDraining: () => draining,
    async start(graceMs) {
      draining = true;
      if (inFlight === 0) return;
      let timer: NodeJS.Timeout | undefined;
      await new Promise<void>((resolve) => {
        idle = resolve;
        timer = setTimeout(resolve, graceMs);
      });
      clearTimeout(timer);
      idle = null;
    },
  };
}
