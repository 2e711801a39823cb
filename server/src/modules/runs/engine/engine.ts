import type { FastifyPluginAsync } from 'fastify';
import { seedFactoryCatalogue } from '../../../db/seed/factory-catalogue.ts';
import { factoryRoutes } from '../../factory/factory.routes.ts';
import { runsRoutes } from '../runs.routes.ts';
import type { AppContext } from '../../../platform/context.ts';
import { RunWorker } from './worker.ts';

const workers = new WeakMap<AppContext, RunWorker>();

/** The worker of an app (tests, bench). */
export function runWorkerOf(ctx: AppContext): RunWorker | undefined {
  return workers.get(ctx);
}

/**
 * The AI Factory and the run engine: seeds the built-in catalogue (every database, idempotent),
 * registers the factory and run routes, starts the worker when the app is ready and stops it
 * (aborting steps in flight and giving their runs back) before the app closes.
 */
export const runEnginePlugin: FastifyPluginAsync<{ ctx: AppContext }> = async (app, { ctx }) => {
  await seedFactoryCatalogue(ctx.db);
  await app.register(factoryRoutes, { ctx });
  await app.register(runsRoutes, { ctx });
  const cfg = ctx.config.runs;
  const worker = new RunWorker(ctx, {
    leaseMs: cfg.leaseMs,
    concurrency: cfg.concurrency,
    pollMs: cfg.pollMs,
    log: (obj, msg) => app.log.warn(obj, msg),
  });
  workers.set(ctx, worker);
  app.addHook('onReady', async () => worker.start());
  app.addHook('preClose', async () => {
    await worker.stop();
  });
};
