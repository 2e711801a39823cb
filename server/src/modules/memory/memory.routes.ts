import {
  ZErrorBody,
  ZIdParams,
  ZMemory,
  ZMineMemoryRequest,
  ZMineMemoryResponse,
  ZPageQuery,
} from '@cc/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../platform/auth/authenticate.ts';
import type { AppContext } from '../../platform/context.ts';
import * as memory from './memory.service.ts';

const errors = { 400: ZErrorBody, 401: ZErrorBody, 403: ZErrorBody, 404: ZErrorBody, 422: ZErrorBody };
const tags = ['memory'];

export const memoryRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.post(
    '/api/memory/mine',
    {
      schema: {
        tags,
        summary: 'Extract durable facts about the caller from text and store the new ones (private)',
        body: ZMineMemoryRequest,
        response: { 200: ZMineMemoryResponse, ...errors },
      },
    },
    async (req) =>
      memory.mineMemories(
        ctx,
        currentUser(req),
        req.body.content,
        req.body.metadata?.conversation_id ?? null,
      ),
  );

  app.get(
    '/api/memory/',
    {
      schema: {
        tags,
        summary: "The caller's memories, newest first",
        querystring: ZPageQuery,
        response: { 200: z.array(ZMemory), ...errors },
      },
    },
    async (req) => memory.listMemories(ctx, currentUser(req), req.query),
  );

  app.delete(
    '/api/memory/:id',
    {
      schema: {
        tags,
        summary: 'Forget one memory',
        params: ZIdParams,
        response: { 204: z.null(), ...errors },
      },
    },
    async (req, reply) => {
      await memory.deleteMemory(ctx, currentUser(req), req.params.id);
      return reply.code(204).send(null);
    },
  );
};
