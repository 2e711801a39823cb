import type { FastifyPluginAsync } from 'fastify';
import { seedFactoryCatalogue } from '../../../db/seed/factory-catalogue.ts';
import type { AppContext } from '../../../platform/context.ts';
import { registerBuiltinSteps } from './builtin-steps.ts';
import { createRunEngineRegistry, type RunEnginePorts, type RunStepContribution } from './engine-registry.ts';
import { RunWorker } from './worker.ts';

export interface RunEngineOptions {
  ctx: AppContext;
  ports: RunEnginePorts;
  /** Each module that owns a step kind adds it (e.g. the advice module's `strategic_advice`). */
  steps: readonly RunStepContribution[];
}

const workers = new WeakMap<AppContext, RunWorker>();

/** The worker of an app (tests, bench). */
export function runWorkerOf(ctx: AppContext): RunWorker | undefined {
  return workers.get(ctx);
}

/**
 * The run engine: takes its ports and step kinds, seeds the built-in factory catalogue its flows
 * use (every database, idempotent), starts the worker when the app is ready and stops it (aborting
 * steps in flight and giving their runs back) before the app closes.
 */
export const runEnginePlugin: FastifyPluginAsync<RunEngineOptions> = async (app, { ctx, ports, steps }) => {
  const engine = createRunEngineRegistry(ctx, ports);
  registerBuiltinSteps(engine);
  for (const contribute of steps) contribute(engine.steps);
  await seedFactoryCatalogue(ctx.db);
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
