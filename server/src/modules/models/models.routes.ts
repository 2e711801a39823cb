import { ZAiCapabilities, ZErrorBody, ZModelInfo } from '@cc/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../platform/context.ts';
import { modelProvidersRoutes } from './model-providers.routes.ts';
import { startModelSettings } from './model-settings.service.ts';
import * as models from './models.service.ts';

const errors = { 401: ZErrorBody, 403: ZErrorBody };
const tags = ['ai'];

export const modelsRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  // The providers set in Super Admin → Models apply to every model call from the start.
  const stopSettings = await startModelSettings(ctx);
  app.addHook('onClose', async () => stopSettings());
  await app.register(modelProvidersRoutes, { ctx });

  app.get(
    '/api/models',
    {
      schema: {
        tags,
        summary: 'Usable models, the engine serving each, and which is the default',
        response: { 200: z.array(ZModelInfo), ...errors },
      },
    },
    async () => models.listModels(ctx),
  );

  app.get(
    '/api/ai/capabilities',
    {
      schema: {
        tags,
        summary: 'Whether internet search is configured and whether the offline engine answers',
        response: { 200: ZAiCapabilities, ...errors },
      },
    },
    async () => models.capabilities(ctx),
  );
};
