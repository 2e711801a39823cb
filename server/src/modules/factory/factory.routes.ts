import {
  ZAgent,
  ZCreateAgentRequest,
  ZCreateCrewRequest,
  ZCreateFlowRequest,
  ZCreateToolRequest,
  ZCrew,
  ZCrewInputSchema,
  ZErrorBody,
  ZFlow,
  ZIdParams,
  ZTool,
} from '@cc/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../platform/auth/authenticate.ts';
import { preconditionOf } from '../../platform/concurrency.ts';
import type { AppContext } from '../../platform/context.ts';
import * as factory from './factory.service.ts';

const errors = { 400: ZErrorBody, 401: ZErrorBody, 403: ZErrorBody, 404: ZErrorBody, 422: ZErrorBody };

/**
 * The AI Factory: GET/POST on the collection, GET/PUT/DELETE by id, for agents, tools, crews and
 * flows alike (spec section 7; PUT and POST /api/flows/ are ours: editing by the owner, user flows).
 */
export const factoryRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const resources = [
    {
      path: '/api/agents',
      label: 'agent',
      item: ZAgent,
      body: ZCreateAgentRequest,
      list: factory.listAgents,
      get: factory.getAgent,
      create: factory.createAgent,
      update: factory.updateAgent,
      remove: factory.deleteAgent,
    },
    {
      path: '/api/tools',
      label: 'tool',
      item: ZTool,
      body: ZCreateToolRequest,
      list: factory.listTools,
      get: factory.getTool,
      create: factory.createTool,
      update: factory.updateTool,
      remove: factory.deleteTool,
    },
    {
      path: '/api/crews',
      label: 'crew',
      item: ZCrew,
      body: ZCreateCrewRequest,
      list: factory.listCrews,
      get: factory.getCrew,
      create: factory.createCrew,
      update: factory.updateCrew,
      remove: factory.deleteCrew,
    },
    {
      path: '/api/flows',
      label: 'flow',
      item: ZFlow,
      body: ZCreateFlowRequest,
      list: factory.listFlows,
      get: factory.getFlow,
      create: factory.createFlow,
      update: factory.updateFlow,
      remove: factory.deleteFlow,
    },
  ] as const;

  for (const r of resources) {
    const tags = ['factory'];
    // biome-ignore lint/suspicious/noExplicitAny: one loop registers four typed resources.
    const res = r as any;
    app.get(
      r.path,
      {
        schema: {
          tags,
          summary: `The ${r.label}s the caller may see: their own, public and auto-generated ones`,
          response: { 200: z.array(r.item), ...errors },
        },
      },
      async (req) => res.list(ctx, currentUser(req)),
    );
    app.post(
      r.path,
      {
        schema: {
          tags,
          summary: `Create a ${r.label} (ceo and admin)`,
          body: r.body,
          response: { 201: r.item, ...errors },
        },
      },
      async (req, reply) => reply.code(201).send(await res.create(ctx, currentUser(req), req.body)),
    );
    app.get(
      `${r.path}/:id`,
      {
        schema: { tags, summary: `One ${r.label}`, params: ZIdParams, response: { 200: r.item, ...errors } },
      },
      async (req) => res.get(ctx, currentUser(req), req.params.id),
    );
    app.put(
      `${r.path}/:id`,
      {
        schema: {
          tags,
          summary: `Replace a ${r.label} (its owner; never an auto-generated one)`,
          params: ZIdParams,
          body: r.body,
          response: { 200: r.item, ...errors },
        },
      },
      async (req) => res.update(ctx, currentUser(req), req.params.id, req.body, preconditionOf(req)),
    );
    app.delete(
      `${r.path}/:id`,
      {
        schema: {
          tags,
          summary: `Delete a ${r.label} (its owner; auto-generated and public items cannot be deleted)`,
          params: ZIdParams,
          response: { 204: z.null(), ...errors },
        },
      },
      async (req, reply) => {
        await res.remove(ctx, currentUser(req), req.params.id);
        return reply.code(204).send(null);
      },
    );
  }

  app.get(
    '/api/crews/:id/input-schema',
    {
      schema: {
        tags: ['factory'],
        summary: 'What a run of this crew asks for (no fields with requires_input: one initial_goal field)',
        params: ZIdParams,
        response: { 200: ZCrewInputSchema, ...errors },
      },
    },
    async (req) => factory.crewInputSchema(ctx, currentUser(req), req.params.id),
  );
};
