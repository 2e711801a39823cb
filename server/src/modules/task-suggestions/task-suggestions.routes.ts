import {
  ZApproveSuggestionsRequest,
  ZApproveSuggestionsResponse,
  ZErrorBody,
  ZGenerateSuggestionsResponse,
  ZIdParams,
  ZRejectSuggestionRequest,
  ZTaskSuggestion,
} from '@cc/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../platform/auth/authenticate.ts';
import type { AppContext } from '../../platform/context.ts';
import { limitMessages } from '../../platform/limits/limit-messages.ts';
import { enforceLimit } from '../../platform/limits/limits.ts';
import * as suggestions from './task-suggestions.service.ts';

const errors = { 401: ZErrorBody, 403: ZErrorBody, 404: ZErrorBody, 409: ZErrorBody };
const tags = ['task suggestions'];

/** AI task suggestions: ceo only (everyone else 403). */
export const taskSuggestionsRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    '/api/task-suggestions',
    {
      schema: {
        tags,
        summary: "The caller's pending task suggestions, newest first",
        response: { 200: z.array(ZTaskSuggestion), ...errors },
      },
    },
    async (req) => suggestions.listSuggestions(ctx, currentUser(req)),
  );

  app.post(
    '/api/task-suggestions/generate',
    {
      schema: {
        tags,
        summary:
          'Suggest new tasks from lagging KPIs, overdue goals and unassigned work ("No new suggestions" when none)',
        response: { 200: ZGenerateSuggestionsResponse, 429: ZErrorBody, ...errors },
      },
    },
    async (req, reply) => {
      // A costly model call like a run start: it shares the per-user run-starts limit.
      const { runStarts } = ctx.limits;
      enforceLimit(req, reply, runStarts, limitMessages.generations(runStarts.max));
      // The model call stops when the client goes away before the answer.
      const controller = new AbortController();
      const onClose = () => {
        if (!reply.raw.writableFinished) controller.abort();
      };
      reply.raw.once('close', onClose);
      try {
        return await suggestions.generateSuggestions(ctx, currentUser(req), { signal: controller.signal });
      } finally {
        reply.raw.off('close', onClose);
      }
    },
  );

  app.post(
    '/api/task-suggestions/approve',
    {
      schema: {
        tags,
        summary: 'Turn a list of (edited) suggestions into tasks, all or none',
        body: ZApproveSuggestionsRequest,
        response: { 200: ZApproveSuggestionsResponse, ...errors },
      },
    },
    async (req) => suggestions.approveSuggestions(ctx, currentUser(req), req.body),
  );

  app.post(
    '/api/task-suggestions/:id/reject',
    {
      schema: {
        tags,
        summary: 'Reject a suggestion with a non-blank reason',
        params: ZIdParams,
        body: ZRejectSuggestionRequest,
        response: { 200: ZTaskSuggestion, ...errors },
      },
    },
    async (req) => suggestions.rejectSuggestion(ctx, currentUser(req), req.params.id, req.body),
  );
};
