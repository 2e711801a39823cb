import {
  ZErrorBody,
  ZModelProviders,
  ZModelProvidersUpdate,
  ZModelProviderTest,
  ZModelProviderTestResult,
} from '@cc/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentUser } from '../../platform/auth/authenticate.ts';
import type { AppContext } from '../../platform/context.ts';
import { describeModelProviders, saveModelProviders, testModelProvider } from './model-providers.service.ts';
import { assertMayManageModelProviders } from './models.policy.ts';

const errors = { 401: ZErrorBody, 403: ZErrorBody, 409: ZErrorBody, 422: ZErrorBody };
const tags = ['ai'];

/** Super Admin → Models: the providers, keys write-only (issue 47 item 3). */
export const modelProvidersRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    '/api/admin/model-providers',
    {
      config: { auth: 'admin' },
      schema: {
        tags,
        summary:
          'The model providers, where each comes from, and the default model (platform admin; keys never shown)',
        response: { 200: ZModelProviders, ...errors },
      },
    },
    async (req) => {
      assertMayManageModelProviders(currentUser(req));
      return describeModelProviders(ctx);
    },
  );

  app.put(
    '/api/admin/model-providers',
    {
      config: { auth: 'admin' },
      schema: {
        tags,
        summary:
          'Set the OpenAI-compatible provider, the OpenAI and Gemini keys and the default model (keys sealed; environment rows are read-only)',
        body: ZModelProvidersUpdate,
        response: { 200: ZModelProviders, ...errors },
      },
    },
    async (req) => {
      assertMayManageModelProviders(currentUser(req));
      return saveModelProviders(ctx, req.body);
    },
  );

  app.post(
    '/api/admin/model-providers/test',
    {
      config: { auth: 'admin' },
      schema: {
        tags,
        summary: "List an OpenAI-compatible endpoint's models (through the outbound address policy)",
        body: ZModelProviderTest,
        response: { 200: ZModelProviderTestResult, ...errors },
      },
    },
    async (req) => {
      assertMayManageModelProviders(currentUser(req));
      return testModelProvider(ctx, req.body);
    },
  );
};
