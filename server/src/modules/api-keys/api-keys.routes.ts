import { ZApiKey, ZCreateApiKeyRequest, ZCreatedApiKey, ZErrorBody, ZIdParams } from '@cc/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../platform/auth/authenticate.ts';
import type { AppContext } from '../../platform/context.ts';
import { viaOf } from '../activity/activity.ledger.ts';
import * as keys from './api-keys.service.ts';

const errors = { 401: ZErrorBody, 403: ZErrorBody, 404: ZErrorBody, 422: ZErrorBody, 429: ZErrorBody };
const tags = ['api-keys'];

/** Personal API keys: managed by a signed-in person only (a key cannot mint or list keys). */
export const apiKeysRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.post(
    '/api/users/me/api-keys',
    {
      schema: {
        tags,
        summary:
          'Create a personal API key (needs current_password unless signed in within 10 minutes); the secret is in this answer only',
        body: ZCreateApiKeyRequest,
        response: { 201: ZCreatedApiKey, ...errors },
      },
    },
    async (req, reply) =>
      reply
        .code(201)
        .send(await keys.createApiKey(ctx, currentUser(req), req.sessionId, req.body, viaOf(req))),
  );

  app.get(
    '/api/users/me/api-keys',
    {
      schema: {
        tags,
        summary: "The caller's live API keys (never their secrets)",
        response: { 200: z.array(ZApiKey), ...errors },
      },
    },
    async (req) => keys.listApiKeys(ctx, currentUser(req)),
  );

  app.delete(
    '/api/users/me/api-keys/:id',
    {
      schema: {
        tags,
        summary: 'Revoke an API key at once',
        params: ZIdParams,
        response: { 204: z.null(), ...errors },
      },
    },
    async (req, reply) => {
      await keys.deleteApiKey(ctx, currentUser(req), req.params.id);
      return reply.code(204).send(null);
    },
  );
};
