import type { FastifyInstance } from 'fastify';
import { withMeterScope } from '../../ai/metering/meter-scope.ts';

/**
 * Makes the signed-in user the ambient meter scope of each request, so any model call a route makes
 * (including ones added later) is metered to them without passing anything. preHandler runs after
 * authentication; running the rest of the request inside the scope is how the scope reaches the handler.
 */
export function registerMeterScope(app: FastifyInstance): void {
  app.addHook('preHandler', (req, _reply, done) => {
    const user = req.user;
    if (!user) {
      done();
      return;
    }
    withMeterScope({ userId: user.id, organizationId: user.organization_id }, done);
  });
}
