import {
  ZCreateGoalRequest,
  ZErrorBody,
  ZGoal,
  ZGoalListQuery,
  ZIdParams,
  ZKpiCheckin,
  ZKpiCheckinListQuery,
  ZKpiCheckinParams,
  ZKpiCheckinRequest,
  ZUpdateGoalRequest,
} from '@cc/contract';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../platform/auth/authenticate.ts';
import { preconditionOf } from '../../platform/concurrency.ts';
import type { AppContext } from '../../platform/context.ts';
import { renderListEntriesAtStart } from '../../platform/list-entries.ts';
import { rendererOf } from './goals.list-entry.ts';
import * as goals from './goals.service.ts';
import * as checkins from './kpi-checkins.service.ts';

/** What the cached GET routes of this module read (see platform/response-cache.ts). */
const GOAL_TABLES = ['strategic_goals', 'goal_kpis', 'kpi_checkins', 'organization_members', 'organizations'];

const errors = { 401: ZErrorBody, 403: ZErrorBody, 404: ZErrorBody };
const tags = ['strategic goals'];

export const goalsRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  // Forgotten or outdated list entries are rendered before serving; later ones in the background.
  renderListEntriesAtStart(app, rendererOf(ctx), 'goal');
  app.get(
    '/api/strategic-goals',
    {
      config: { cache: GOAL_TABLES },
      schema: {
        tags,
        summary: "Goals with KPIs and progress: the caller's and their organizations'",
        querystring: ZGoalListQuery,
        response: { 200: z.array(ZGoal), ...errors },
      },
    },
    // The page is JSON text already (stored list entries, goals.list-entry.ts): sent as it is.
    async (req, reply) => {
      const body = await goals.listGoalsText(ctx, currentUser(req), req.query);
      // A string with a JSON content type skips the serializer (the response schema still documents it).
      return (reply as FastifyReply).type('application/json; charset=utf-8').send(body);
    },
  );

  app.post(
    '/api/strategic-goals',
    {
      schema: {
        tags,
        summary: 'Create a goal with its KPIs (one transaction)',
        body: ZCreateGoalRequest,
        response: { 201: ZGoal, ...errors },
      },
    },
    async (req, reply) => reply.code(201).send(await goals.createGoal(ctx, currentUser(req), req.body)),
  );

  app.get(
    '/api/strategic-goals/:id',
    {
      schema: { tags, summary: 'One goal', params: ZIdParams, response: { 200: ZGoal, ...errors } },
    },
    async (req) => goals.getGoal(ctx, currentUser(req), req.params.id),
  );

  app.put(
    '/api/strategic-goals/:id',
    {
      schema: {
        tags,
        summary: 'Update a goal; kpis, when sent, replace the KPI list (one transaction)',
        params: ZIdParams,
        body: ZUpdateGoalRequest,
        response: { 200: ZGoal, ...errors },
      },
    },
    async (req) => goals.updateGoal(ctx, currentUser(req), req.params.id, req.body, preconditionOf(req)),
  );

  app.delete(
    '/api/strategic-goals/:id',
    {
      schema: { tags, summary: 'Delete a goal', params: ZIdParams, response: { 204: z.null(), ...errors } },
    },
    async (req, reply) => {
      await goals.deleteGoal(ctx, currentUser(req), req.params.id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/api/strategic-goals/:id/kpis/:kpiId/checkins',
    {
      schema: {
        tags,
        summary: "A KPI's check-ins (its history), oldest first",
        params: ZKpiCheckinParams,
        querystring: ZKpiCheckinListQuery,
        response: { 200: z.array(ZKpiCheckin), ...errors },
      },
    },
    async (req) => checkins.listCheckins(ctx, currentUser(req), req.params.id, req.params.kpiId, req.query),
  );

  app.post(
    '/api/strategic-goals/:id/kpis/:kpiId/checkins',
    {
      schema: {
        tags,
        summary: "Record a KPI's value on a date (default today); a second one that day replaces it",
        params: ZKpiCheckinParams,
        body: ZKpiCheckinRequest,
        response: { 201: ZKpiCheckin, ...errors },
      },
    },
    async (req, reply) =>
      reply
        .code(201)
        .send(await checkins.recordCheckin(ctx, currentUser(req), req.params.id, req.params.kpiId, req.body)),
  );
};
