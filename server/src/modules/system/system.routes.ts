import { sql } from 'kysely';
import { OIDC_START_PATH } from '../auth/oidc.routes.ts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { isDatabaseUnavailable, RETRY_AFTER_SECONDS, UNAVAILABLE_DETAIL } from '../../db/unavailable.ts';
import type { AppContext } from '../../platform/context.ts';
import { LIVENESS_PATH } from '../../platform/graceful-drain.ts';

export const systemRoutes: FastifyPluginAsyncZod<{ ctx: AppContext; isDraining: () => boolean }> = async (
  app,
  { ctx, isDraining },
) => {
  // Liveness: a bare JSON route with no auth and no I/O (also the bench's control route).
  app.get(
    LIVENESS_PATH,
    {
      config: { auth: 'public' },
      schema: { hide: true, response: { 200: z.object({ status: z.literal('ok') }) } },
    },
    async () => ({ status: 'ok' as const }),
  );

  // Readiness: the database answers and the server is not draining.
  app.get('/readyz', { config: { auth: 'public' }, schema: { hide: true } }, async (_req, reply) => {
    if (isDraining()) return reply.code(503).send({ status: 'draining' });
    try {
      await sql`select 1`.execute(ctx.db);
    } catch (err) {
      if (!isDatabaseUnavailable(err)) throw err;
      // Not ready while the database is unreachable; a load balancer takes the instance out meanwhile.
      return reply
        .code(503)
        .header('retry-after', String(RETRY_AFTER_SECONDS))
        .send({ status: 'unavailable', database: ctx.dialect, detail: UNAVAILABLE_DETAIL });
    }
    return { status: 'ready', database: ctx.dialect };
  });

  app.get(
    '/api/public-config',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['system'],
        summary: 'Settings the public pages need',
        response: {
          200: z.object({
            contact_email: z.string(),
            oidc: z.object({ label: z.string(), start_url: z.string() }).optional(),
          }),
        },
      },
    },
    async () => ({
      contact_email: ctx.config.contactEmail,
      ...(ctx.config.oidc
        ? { oidc: { label: ctx.config.oidc.buttonLabel, start_url: OIDC_START_PATH } }
        : {}),
    }),
  );
};
