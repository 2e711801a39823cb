import { acceptingEcho } from '@cc/contract';
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The entity a PUT/PATCH body may echo back, when it is not the route's 200 response (e.g. a
     * contact's interaction, answered with the whole contact).
     */
    echoes?: z.core.$ZodType;
  }
}

/**
 * Every PUT/PATCH accepts the object the server returned plus a change (ARCHITECTURE §9, mass
 * assignment): its server-owned keys are dropped before the body's strict check, so they are never
 * applied while unknown keys still get 422. Done here, once, so a new route cannot forget it.
 */
export function registerEchoBodies(app: FastifyInstance) {
  app.addHook('onRoute', (route) => {
    const methods = [route.method].flat();
    if (!methods.some((m) => m === 'PUT' || m === 'PATCH')) return;
    const schema = route.schema as { body?: z.core.$ZodType; response?: Record<number, unknown> } | undefined;
    const entity = route.config?.echoes ?? (schema?.response?.[200] as z.core.$ZodType | undefined);
    if (!schema?.body || !entity || !('_zod' in entity)) return;
    route.schema = { ...route.schema, body: acceptingEcho(schema.body, entity) };
  });
}
