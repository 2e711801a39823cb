import {
  ZAdvice,
  ZAdviceFeedbackRequest,
  ZAdviceGeneration,
  ZAdviceListQuery,
  ZCreateAdviceRequest,
  ZErrorBody,
  ZIdParams,
  ZStrategicFlowRequest,
  ZUpdateAdviceRequest,
} from '@cc/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../platform/auth/authenticate.ts';
import { preconditionOf } from '../../platform/concurrency.ts';
import type { AppContext } from '../../platform/context.ts';
import { limitMessages } from '../../platform/limits/limit-messages.ts';
import { enforceLimit } from '../../platform/limits/limits.ts';
import { getStrategicFlowRun, startStrategicFlowRun } from '../runs/runs.strategic.ts';
import * as advice from './advice.service.ts';

const errors = { 401: ZErrorBody, 403: ZErrorBody, 404: ZErrorBody };
const tags = ['strategic advice'];

export const adviceRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    '/api/strategic-advice',
    {
      schema: {
        tags,
        summary: "Advice, newest first: the caller's and their organizations'",
        querystring: ZAdviceListQuery,
        response: { 200: z.array(ZAdvice), ...errors },
      },
    },
    async (req) => advice.listAdvice(ctx, currentUser(req), req.query),
  );

  app.post(
    '/api/strategic-advice',
    {
      schema: {
        tags,
        summary: 'Create advice',
        body: ZCreateAdviceRequest,
        response: { 201: ZAdvice, ...errors },
      },
    },
    async (req, reply) => reply.code(201).send(await advice.createAdvice(ctx, currentUser(req), req.body)),
  );

  app.get(
    '/api/strategic-advice/:id',
    {
      schema: { tags, summary: 'One advice item', params: ZIdParams, response: { 200: ZAdvice, ...errors } },
    },
    async (req) => advice.getAdvice(ctx, currentUser(req), req.params.id),
  );

  app.put(
    '/api/strategic-advice/:id',
    {
      schema: {
        tags,
        summary: 'Update advice (content required; other fields left out stay)',
        params: ZIdParams,
        body: ZUpdateAdviceRequest,
        response: { 200: ZAdvice, ...errors },
      },
    },
    async (req) => advice.updateAdvice(ctx, currentUser(req), req.params.id, req.body, preconditionOf(req)),
  );

  app.patch(
    '/api/strategic-advice/:id/feedback',
    {
      schema: {
        tags,
        summary: "Save the dashboard's feedback on an advice item",
        params: ZIdParams,
        body: ZAdviceFeedbackRequest,
        response: { 200: ZAdvice, ...errors },
      },
    },
    async (req) => advice.setFeedback(ctx, currentUser(req), req.params.id, req.body, preconditionOf(req)),
  );

  app.delete(
    '/api/strategic-advice/:id',
    {
      schema: { tags, summary: 'Delete advice', params: ZIdParams, response: { 204: z.null(), ...errors } },
    },
    async (req, reply) => {
      await advice.deleteAdvice(ctx, currentUser(req), req.params.id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/api/flow/run/strategic_flow',
    {
      schema: {
        tags,
        summary:
          'Generate Advice: starts the built-in strategic_flow on the run engine and answers at once with its run (202)',
        body: ZStrategicFlowRequest,
        response: { 202: ZAdviceGeneration, 429: ZErrorBody, ...errors },
      },
    },
    async (req, reply) => {
      // A crew/flow run start like any other: the same per-user limit.
      const { runStarts } = ctx.limits;
      enforceLimit(req, reply, runStarts, limitMessages.runStarts(runStarts.max));
      return reply.code(202).send(await startStrategicFlowRun(ctx, currentUser(req), req.body));
    },
  );

  app.get(
    '/api/flow/runs/:id',
    {
      schema: {
        tags,
        summary: 'Status of a Generate Advice run (running, completed with advice_id, failed with error)',
        params: ZIdParams,
        response: { 200: ZAdviceGeneration, ...errors },
      },
    },
    async (req) => getStrategicFlowRun(ctx, currentUser(req), req.params.id),
  );
};
