import { ZBrief, ZBriefListQuery, ZErrorBody, ZIdParams } from '@cc/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../platform/auth/authenticate.ts';
import type { AppContext } from '../../platform/context.ts';
import { limitMessages } from '../../platform/limits/limit-messages.ts';
import { enforceLimit } from '../../platform/limits/limits.ts';
import { BriefScheduler, registerBriefScheduler } from './briefs.scheduler.ts';
import * as briefs from './briefs.service.ts';

const errors = { 401: ZErrorBody, 403: ZErrorBody, 404: ZErrorBody };
const tags = ['briefs'];

/** The executive brief: generate now, history, one brief; and the scheduler of this instance. */
export const briefsRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.post(
    '/api/briefs/generate',
    {
      schema: {
        tags,
        summary:
          "Build the caller's brief now (facts, checked summary, top actions); e-mailed when SMTP_URL is set, at most 3 a day",
        response: { 201: ZBrief, 429: ZErrorBody, ...errors },
      },
    },
    async (req, reply) => {
      // A model call and possibly an e-mail: it shares the per-user run-starts limit.
      const { runStarts } = ctx.limits;
      enforceLimit(req, reply, runStarts, limitMessages.generations(runStarts.max));
      return reply.code(201).send(await briefs.generateBrief(ctx, currentUser(req), { trigger: 'manual' }));
    },
  );

  app.get(
    '/api/briefs',
    {
      schema: {
        tags,
        summary: "The caller's briefs, newest first (paginated)",
        querystring: ZBriefListQuery,
        response: { 200: z.array(ZBrief), ...errors },
      },
    },
    async (req) => briefs.listBriefs(ctx, currentUser(req), req.query),
  );

  app.get(
    '/api/briefs/:id',
    {
      schema: {
        tags,
        summary: 'One brief (its owner only)',
        params: ZIdParams,
        response: { 200: ZBrief, ...errors },
      },
    },
    async (req) => briefs.getBrief(ctx, currentUser(req), req.params.id),
  );

  const scheduler = new BriefScheduler(ctx, undefined, (err) => app.log.error({ err }, 'brief scheduler'));
  registerBriefScheduler(ctx, scheduler);
  app.addHook('onReady', async () => scheduler.start(ctx.config.briefs.schedulerPollMs));
  app.addHook('preClose', async () => scheduler.stop());
};
