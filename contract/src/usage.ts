import { z } from 'zod';
import { ZId } from './common.ts';
import { ZDateOnly } from './fields.ts';
import { ALLOWED_MODELS, type TAllowedModel } from './models.ts';

/** What a model call was made for: the caller names it; these are the app's own features. */
export const USAGE_FEATURES = [
  'chat',
  'memory',
  'advice',
  'task_suggestions',
  'comms_suggestions',
  'crew',
  'flow',
  'brief',
  'other',
] as const;

/** Each feature in words, for the usage screens and their labels. */
export const USAGE_FEATURE_LABELS: Record<(typeof USAGE_FEATURES)[number], string> = {
  chat: 'Chat',
  memory: 'Memory',
  advice: 'Strategic advice',
  task_suggestions: 'Task suggestions',
  comms_suggestions: 'Comms reply suggestions',
  crew: 'Crews',
  flow: 'Flows',
  brief: 'Morning brief',
  other: 'Other',
};

/** How a metered call ended. */
export const USAGE_OUTCOMES = ['ok', 'error', 'aborted', 'interrupted'] as const;

/**
 * The default price table (USD per million tokens), for the allowed models. An OpenAI-compatible
 * endpoint's models cost $0 until an administrator prices them; the offline engine is always $0.
 */
export const DEFAULT_MODEL_PRICES: Record<TAllowedModel, { input: number; output: number }> = {
  'gpt-5-chat': { input: 1.25, output: 10 },
  'gpt-5': { input: 1.25, output: 10 },
  'gpt-5-mini': { input: 0.25, output: 2 },
  'gemini-2.5-pro': { input: 1.25, output: 10 },
};
export const DEFAULT_PRICED_MODELS = ALLOWED_MODELS;

/** Largest price or budget accepted (USD): far above any real one, and within a bigint of micro-dollars. */
export const MAX_USD = 1_000_000_000;
const ZUsd = z.number().min(0).max(MAX_USD);

export const ZModelPrice = z.strictObject({
  model: z.string().trim().min(1).max(200),
  input_per_million_usd: ZUsd,
  output_per_million_usd: ZUsd,
});
export type TModelPrice = z.infer<typeof ZModelPrice>;
/** What an endpoint model nobody priced costs (USD per million tokens). */
export const ZDefaultModelPrice = z.strictObject({
  input_per_million_usd: ZUsd,
  output_per_million_usd: ZUsd,
});
export type TDefaultModelPrice = z.infer<typeof ZDefaultModelPrice>;
const ZModelId = z.string().trim().min(1).max(200);
/**
 * PUT /api/admin/model-prices: the given models' prices (others keep theirs); with `offered_models`,
 * the endpoint models members may use (the list replaces the previous one); with `default_price`, the
 * price of unpriced endpoint models (null: none, so they are refused wherever a budget applies).
 * Each model at most once: two prices of one model in one request are a 422, not a guess at which wins.
 */
export const ZModelPrices = z.strictObject({
  models: z
    .array(ZModelPrice)
    .max(200)
    .superRefine((models, ctx) => {
      const seen = new Set<string>();
      models.forEach((m, i) => {
        if (seen.has(m.model))
          ctx.addIssue({ code: 'custom', path: [i, 'model'], message: `${m.model} is listed twice.` });
        seen.add(m.model);
      });
    }),
  offered_models: z.array(ZModelId).max(500).optional(),
  default_price: ZDefaultModelPrice.nullable().optional(),
});
export type TModelPrices = z.infer<typeof ZModelPrices>;
/** GET (and PUT's answer) /api/admin/model-prices: every model with its price, and the endpoint's offer. */
export const ZModelPriceTable = z.object({
  models: z.array(
    ZModelPrice.extend({
      /** false: an endpoint model nobody priced (the price shown is the default price, or $0) */
      priced: z.boolean(),
    }),
  ),
  /** the models the OpenAI-compatible endpoint lists besides the four built-in ones */
  endpoint_models: z.array(z.string()),
  /** those of them members may use (the four built-in models are always offered) */
  offered_models: z.array(z.string()),
  default_price: ZDefaultModelPrice.nullable(),
});
export type TModelPriceTable = z.infer<typeof ZModelPriceTable>;

/** PUT body of a budget: null removes it. */
export const ZBudgetRequest = z.strictObject({ monthly_usd: ZUsd.nullable() });
export type TBudgetRequest = z.infer<typeof ZBudgetRequest>;
export const ZBudget = z.object({
  monthly_usd: z.number().nullable(),
  used_usd: z.number(),
  remaining_usd: z.number().nullable(),
  /** the first day of next month (UTC), YYYY-MM-DD */
  resets_on: z.string(),
});
export type TBudget = z.infer<typeof ZBudget>;

export const ZMemberBudgetParams = z.object({ id: ZId, userId: ZId });

export const USAGE_GROUPS = ['day', 'user', 'organization', 'model', 'feature'] as const;
export type TUsageGroup = (typeof USAGE_GROUPS)[number];
export const ZUsageSummaryQuery = z.object({
  group_by: z.enum(USAGE_GROUPS).default('day'),
  since: ZDateOnly.optional(),
  until: ZDateOnly.optional(),
  organization_id: ZId.optional(),
});
export type TUsageSummaryQuery = z.input<typeof ZUsageSummaryQuery>;

export const ZUsageFigures = z.object({
  calls: z.number().int(),
  input_tokens: z.number().int(),
  output_tokens: z.number().int(),
  cost_usd: z.number(),
});
export const ZUsageRow = ZUsageFigures.extend({
  /** the day, user id, organization id, model or feature ('' when none) */
  key: z.string(),
  label: z.string(),
});
export type TUsageRow = z.infer<typeof ZUsageRow>;
export const ZUsageSummary = z.object({
  group_by: z.enum(USAGE_GROUPS),
  since: z.string(),
  until: z.string(),
  organization_id: z.string().nullable(),
  rows: z.array(ZUsageRow),
  total: ZUsageFigures,
});
export type TUsageSummary = z.infer<typeof ZUsageSummary>;

export const ZUsageExportQuery = ZUsageSummaryQuery.omit({ group_by: true }).extend({
  format: z.enum(['csv']).default('csv'),
});

export const ZMyUsage = z.object({
  month: z.string(),
  total: ZUsageFigures,
  by_feature: z.array(ZUsageRow),
  by_model: z.array(ZUsageRow),
  /** the tightest budget that applies to the caller's calls (their own or their organization's) */
  budget: ZBudget,
  /** the organization the caller's calls are charged to when made in none of their own (null: none) */
  charged_organization_id: z.string().nullable(),
  /** starting a run estimated above this asks to confirm (USD) */
  run_confirm_usd: z.number(),
});
export type TMyUsage = z.infer<typeof ZMyUsage>;

/** The run cost above which starting a crew or flow asks to confirm, for a user who set none (USD). */
export const DEFAULT_RUN_CONFIRM_USD = 1;
export const ZRunThresholdRequest = z.strictObject({ run_confirm_usd: ZUsd.nullable() });
export const ZRunThreshold = z.object({ run_confirm_usd: z.number() });

/** Cost estimate of starting a crew or flow. */
export const ZRunEstimate = z.object({
  estimated_usd: z.number(),
  steps: z.number().int(),
  /** the caller's threshold: above it the screen asks to confirm */
  threshold_usd: z.number(),
  needs_confirmation: z.boolean(),
});
export type TRunEstimate = z.infer<typeof ZRunEstimate>;

/**
 * PUT /api/users/me/primary-organization: the caller's primary membership, which their model calls
 * are charged to when the call is made in no organization of its own (one of their memberships).
 */
export const ZPrimaryOrganizationRequest = z.strictObject({ organization_id: ZId });
export const ZPrimaryOrganization = z.object({ organization_id: z.string() });
