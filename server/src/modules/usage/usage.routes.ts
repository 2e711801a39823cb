import {
  ZBudget,
  ZBudgetRequest,
  ZErrorBody,
  ZIdParams,
  ZMemberBudgetParams,
  ZModelPrices,
  ZModelPriceTable,
  ZMyUsage,
  ZPrimaryOrganization,
  ZPrimaryOrganizationRequest,
  ZRunEstimate,
  ZRunThreshold,
  ZRunThresholdRequest,
  ZUsageExportQuery,
  ZUsageSummary,
  ZUsageSummaryQuery,
} from '@cc/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { listModels } from '../../ai/models.ts';
import { setMyPrimaryOrganization } from '../organizations/memberships.service.ts';
import { currentUser } from '../../platform/auth/authenticate.ts';
import type { AppContext } from '../../platform/context.ts';
import { listModelPrices, saveModelPrices } from './usage-prices.service.ts';
import { estimateCrew, estimateFlow } from './usage-estimate.service.ts';
import { settleStaleReservations, startStaleReservationSweep } from './usage-leases.service.ts';
import * as usage from './usage.service.ts';

const errors = { 400: ZErrorBody, 401: ZErrorBody, 403: ZErrorBody, 404: ZErrorBody, 422: ZErrorBody };
const tags = ['usage'];

export const usageRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  // Holds of calls whose instance died are settled as interrupted calls, at start (on SQLite, served by
  // one process, every leftover row) and then by a sweep on every instance, on both engines.
  await settleStaleReservations(ctx, { atStart: true });
  let stopSweep = () => {};
  app.addHook('onReady', async () => {
    stopSweep = startStaleReservationSweep(ctx, (err) =>
      app.log.warn({ err }, 'stale budget reservations not settled; retried at the next sweep'),
    );
  });
  app.addHook('onClose', async () => stopSweep());

  /** The models the server can call, priced by default or not, for the price table. */
  const endpointModels = async () =>
    (await listModels(ctx)).filter((m) => m.engine === 'openai-compatible').map((m) => m.id);

  app.get(
    '/api/admin/model-prices',
    {
      config: { auth: 'admin' },
      schema: {
        tags,
        summary:
          'Model prices per million tokens, the offered endpoint models and the default price (platform admin)',
        response: { 200: ZModelPriceTable, ...errors },
      },
    },
    async () => listModelPrices(ctx, await endpointModels()),
  );

  app.put(
    '/api/admin/model-prices',
    {
      config: { auth: 'admin' },
      schema: {
        tags,
        summary:
          'Set model prices (the models given; others keep theirs), the offered endpoint models and the default price',
        body: ZModelPrices,
        response: { 200: ZModelPriceTable, ...errors },
      },
    },
    async (req) => {
      await saveModelPrices(ctx, req.body);
      return listModelPrices(ctx, await endpointModels());
    },
  );

  app.get(
    '/api/organizations/:id/budget',
    {
      schema: {
        tags,
        summary: "The organization's monthly AI budget and this month's spend (its admins, platform admin)",
        params: ZIdParams,
        response: { 200: ZBudget, ...errors },
      },
    },
    async (req) => usage.getOrgBudget(ctx, currentUser(req), req.params.id),
  );

  app.put(
    '/api/organizations/:id/budget',
    {
      schema: {
        tags,
        summary: "Set the organization's monthly AI budget (null: none)",
        params: ZIdParams,
        body: ZBudgetRequest,
        response: { 200: ZBudget, ...errors },
      },
    },
    async (req) => usage.setOrgBudget(ctx, currentUser(req), req.params.id, req.body.monthly_usd),
  );

  app.get(
    '/api/organizations/:id/users/:userId/budget',
    {
      schema: {
        tags,
        summary: "A member's monthly AI budget in the organization and this month's spend",
        params: ZMemberBudgetParams,
        response: { 200: ZBudget, ...errors },
      },
    },
    async (req) => usage.getMemberBudget(ctx, currentUser(req), req.params.id, req.params.userId),
  );

  app.put(
    '/api/organizations/:id/users/:userId/budget',
    {
      schema: {
        tags,
        summary: "Set a member's monthly AI budget (null: none)",
        params: ZMemberBudgetParams,
        body: ZBudgetRequest,
        response: { 200: ZBudget, ...errors },
      },
    },
    async (req) =>
      usage.setMemberBudget(ctx, currentUser(req), req.params.id, req.params.userId, req.body.monthly_usd),
  );

  app.get(
    '/api/usage/summary',
    {
      // Kept per caller and URL until a call is recorded (the roll-up changes) or names change.
      config: { cache: ['usage_daily', 'organizations', 'organization_members'] },
      schema: {
        tags,
        summary: 'AI usage and cost grouped by day, person, organization, model or feature (administrators)',
        querystring: ZUsageSummaryQuery,
        response: { 200: ZUsageSummary, ...errors },
      },
    },
    async (req) => usage.usageSummary(ctx, currentUser(req), req.query),
  );

  app.get(
    '/api/usage/export',
    {
      schema: {
        tags,
        summary: 'Every model call of a range as CSV (administrators)',
        querystring: ZUsageExportQuery,
        response: { 200: z.string(), ...errors },
      },
    },
    async (req, reply) => {
      const csv = await usage.usageCsv(ctx, currentUser(req), req.query);
      const name = `usage-${req.query.since ?? 'month'}.csv`.replace(/[^\w.-]/g, '');
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${name}"`)
        .send(csv);
    },
  );

  app.get(
    '/api/users/me/usage',
    {
      schema: {
        tags,
        summary: "The caller's AI usage this month and the budget that applies to them",
        response: { 200: ZMyUsage, ...errors },
      },
    },
    async (req) => usage.myUsage(ctx, currentUser(req)),
  );

  app.put(
    '/api/users/me/run-threshold',
    {
      schema: {
        tags,
        summary: 'Set the run cost above which starting a crew or flow asks to confirm (null: the default)',
        body: ZRunThresholdRequest,
        response: { 200: ZRunThreshold, ...errors },
      },
    },
    async (req) => usage.setRunThreshold(ctx, currentUser(req), req.body.run_confirm_usd),
  );

  app.put(
    '/api/users/me/primary-organization',
    {
      schema: {
        tags,
        summary:
          "Choose the caller's primary organization (one of theirs): their model calls made in no organization are charged to it",
        body: ZPrimaryOrganizationRequest,
        response: { 200: ZPrimaryOrganization, ...errors },
      },
    },
    async (req) => {
      await setMyPrimaryOrganization(ctx, currentUser(req), req.body.organization_id);
      return { organization_id: req.body.organization_id };
    },
  );

  for (const kind of ['crews', 'flows'] as const) {
    app.get(
      `/api/${kind}/:id/estimate`,
      {
        schema: {
          tags,
          summary: `What starting this ${kind.slice(0, -1)} is likely to cost, and whether to ask to confirm`,
          params: ZIdParams,
          response: { 200: ZRunEstimate, ...errors },
        },
      },
      async (req) =>
        kind === 'crews'
          ? estimateCrew(ctx, currentUser(req), req.params.id)
          : estimateFlow(ctx, currentUser(req), req.params.id),
    );
  }
};
