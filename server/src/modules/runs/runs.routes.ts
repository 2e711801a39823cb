import {
  ZContinueRunRequest,
  ZCrewRun,
  ZCrewRunList,
  ZCrewRunTimeline,
  ZErrorBody,
  ZFlowRun,
  ZFlowRunList,
  ZFlowRunTimeline,
  ZIdParams,
  ZRunConversationQuery,
  ZStartCrewRunRequest,
  ZStartCrewRunResponse,
  ZStartFlowRunRequest,
  ZStartFlowRunResponse,
  ZTimelineQuery,
  ZEventCursor,
} from '@cc/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../platform/auth/authenticate.ts';
import type { AppContext } from '../../platform/context.ts';
import { limitMessages } from '../../platform/limits/limit-messages.ts';
import { enforceLimit } from '../../platform/limits/limits.ts';
import { openSseStream } from '../../platform/realtime/sse.ts';
import type { RunKind } from './engine/runs.repository.ts';
import { runApprovalsRoutes } from './runs-approvals.routes.ts';
import * as runs from './runs.service.ts';

const errors = {
  400: ZErrorBody,
  401: ZErrorBody,
  403: ZErrorBody,
  404: ZErrorBody,
  409: ZErrorBody,
  422: ZErrorBody,
  429: ZErrorBody,
};
const tags = ['runs'];

/** Crew runs and flow runs (spec section 7): the same routes under /api/crew-runs and /api/flow-runs. */
export const runsRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  await app.register(runApprovalsRoutes, { ctx });
  const kinds = [
    {
      kind: 'crew' as RunKind,
      base: '/api/crew-runs',
      run: ZCrewRun,
      list: ZCrewRunList,
      tl: ZCrewRunTimeline,
    },
    {
      kind: 'flow' as RunKind,
      base: '/api/flow-runs',
      run: ZFlowRun,
      list: ZFlowRunList,
      tl: ZFlowRunTimeline,
    },
  ];

  // Every run start costs model calls: counted per user before anything else is looked up.
  const limitRunStart = (req: FastifyRequest, reply: FastifyReply) =>
    enforceLimit(req, reply, ctx.limits.runStarts, limitMessages.runStarts(ctx.limits.runStarts.max));

  app.post(
    '/api/crew-runs',
    {
      schema: {
        tags,
        summary: 'Start a crew run (409 while another crew or flow runs in the conversation)',
        querystring: ZRunConversationQuery,
        body: ZStartCrewRunRequest,
        response: { 201: ZStartCrewRunResponse, ...errors },
      },
    },
    async (req, reply) => {
      limitRunStart(req, reply);
      return reply
        .code(201)
        .send(await runs.startCrewRun(ctx, currentUser(req), req.body, req.query.conversation_id ?? null));
    },
  );

  app.post(
    '/api/conversations/:id/crew-runs',
    {
      schema: {
        tags,
        summary: 'Start a crew run in this conversation',
        params: ZIdParams,
        body: ZStartCrewRunRequest,
        response: { 201: ZStartCrewRunResponse, ...errors },
      },
    },
    async (req, reply) => {
      limitRunStart(req, reply);
      return reply.code(201).send(await runs.startCrewRun(ctx, currentUser(req), req.body, req.params.id));
    },
  );

  app.post(
    '/api/flow-runs',
    {
      schema: {
        tags,
        summary: 'Start a flow run (by id, or by name for built-ins such as strategic_flow)',
        querystring: ZRunConversationQuery,
        body: ZStartFlowRunRequest,
        response: { 201: ZStartFlowRunResponse, ...errors },
      },
    },
    async (req, reply) => {
      limitRunStart(req, reply);
      return reply
        .code(201)
        .send(await runs.startFlowRun(ctx, currentUser(req), req.body, req.query.conversation_id ?? null));
    },
  );

  for (const k of kinds) {
    const label = k.kind === 'crew' ? 'crew' : 'flow';
    app.get(
      k.base,
      {
        schema: {
          tags,
          summary: `The caller's ${label} runs, newest first (optionally of one conversation)`,
          querystring: ZRunConversationQuery,
          response: { 200: k.list, ...errors },
        },
      },
      async (req) => runs.listRuns(ctx, currentUser(req), k.kind, req.query.conversation_id) as never,
    );
    app.get(
      `${k.base}/:id`,
      {
        schema: { tags, summary: `One ${label} run`, params: ZIdParams, response: { 200: k.run, ...errors } },
      },
      async (req) => runs.getRun(ctx, currentUser(req), k.kind, req.params.id) as never,
    );
    app.get(
      `${k.base}/:id/timeline`,
      {
        schema: {
          tags,
          summary: `The ${label} run with its timeline (oldest first; page with after = last event id)`,
          params: ZIdParams,
          querystring: ZTimelineQuery,
          response: { 200: k.tl, ...errors },
        },
      },
      async (req) => runs.timeline(ctx, currentUser(req), k.kind, req.params.id, req.query) as never,
    );
    app.post(
      `${k.base}/:id/continue`,
      {
        schema: {
          tags,
          summary: `Answer the ${label} run's human prompt; it runs on from the waiting step`,
          params: ZIdParams,
          body: ZContinueRunRequest,
          response: { 200: k.run, ...errors },
        },
      },
      async (req) =>
        runs.continueRun(ctx, currentUser(req), k.kind, req.params.id, req.body.user_input) as never,
    );
    app.post(
      `${k.base}/:id/stop`,
      {
        schema: {
          tags,
          summary: `Stop the ${label} run (it ends as failed; the model call in flight is aborted)`,
          params: ZIdParams,
          response: { 200: k.run, ...errors },
        },
      },
      async (req) => runs.stopRun(ctx, currentUser(req), k.kind, req.params.id) as never,
    );
    app.get(
      `${k.base}/:id/events`,
      {
        config: { auth: 'active', stream: true },
        schema: {
          tags,
          summary: `Event stream of the ${label} run: \`run_event\` events (id = resume cursor); ends after the terminal event`,
          params: ZIdParams,
          querystring: z.object({ token: z.string().optional(), last_event_id: ZEventCursor.optional() }),
        },
      },
      async (req, reply) => {
        const opts = await runs.runStreamOptions(ctx, currentUser(req), k.kind, req.params.id);
        await openSseStream(req, reply, ctx, opts);
      },
    );
  }
};
