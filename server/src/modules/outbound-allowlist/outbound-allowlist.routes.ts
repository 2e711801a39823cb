import { ZErrorBody, ZOutboundAllowlist, ZOutboundAllowlistRequest } from '@cc/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentUser } from '../../platform/auth/authenticate.ts';
import type { AppContext } from '../../platform/context.ts';
import { getAllowlist, replaceAllowlist } from './outbound-allowlist.service.ts';

const errors = { 400: ZErrorBody, 401: ZErrorBody, 403: ZErrorBody, 422: ZErrorBody };
const tags = ['factory'];

/** The side-effect-free destinations (issue 46 row 5): model-chosen calls there need no approval. */
export const outboundAllowlistRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    '/api/admin/outbound-allowlist',
    {
      config: { auth: 'admin' },
      schema: {
        tags,
        summary: 'Methods and destinations marked side-effect-free (platform admin)',
        response: { 200: ZOutboundAllowlist, ...errors },
      },
    },
    async (req) => getAllowlist(ctx, currentUser(req)),
  );

  app.put(
    '/api/admin/outbound-allowlist',
    {
      config: { auth: 'admin' },
      schema: {
        tags,
        summary: 'Replace the side-effect-free methods and destinations (platform admin)',
        body: ZOutboundAllowlistRequest,
        response: { 200: ZOutboundAllowlist, ...errors },
      },
    },
    async (req) => replaceAllowlist(ctx, currentUser(req), req.body),
  );
};
