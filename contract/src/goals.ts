import { z } from 'zod';
import { MAX_PAGE_SIZE, ZRefId, ZSkip } from './common.ts';
import { DEFAULT_KPI_DIRECTION, KPI_DIRECTIONS } from './goal-numbers.ts';
import { ZDateOnly, ZOptionalBody, ZOptionalText, ZQueryBool, ZSearch } from './fields.ts';

export const GOAL_STATUSES = ['new', 'in_progress', 'done', 'failed'] as const;
export type TGoalStatus = (typeof GOAL_STATUSES)[number];
export const ZGoalStatus = z.enum(GOAL_STATUSES, {
  message: 'Status must be one of new, in_progress, done, failed',
});
export const DEFAULT_GOAL_STATUS: TGoalStatus = 'new';
/** Only `done` counts as completed (hidden unless include_completed); `failed` goals stay listed. */
export const COMPLETED_GOAL_STATUSES: readonly TGoalStatus[] = ['done'];
export const GOAL_STATUS_COLORS: Record<TGoalStatus, 'blue' | 'yellow' | 'green' | 'red'> = {
  new: 'blue',
  in_progress: 'yellow',
  done: 'green',
  failed: 'red',
};
/** "in_progress" → "in progress". */
export const goalStatusLabel = (status: string) => status.replace(/_/g, ' ');

export const GOAL_SORTS = ['due_date', 'created_at', 'status'] as const;
export type TGoalSort = (typeof GOAL_SORTS)[number];
export const DEFAULT_GOAL_SORT: TGoalSort = 'due_date';
/** The goals list is fresh for 30 seconds (spec section 9). */
export const GOALS_STALE_MS = 30_000;
export const MAX_KPIS_PER_GOAL = 50;
export const GOAL_REQUIRED_MESSAGE = 'Title and Due Date are required.';

// Progress, expected progress, forecast and risk: one implementation in goal-numbers.ts.
export { goalProgress, type KpiValues, kpiProgress } from './goal-numbers.ts';

// ---- API shapes ----

export const ZKpiDirection = z.enum(KPI_DIRECTIONS, {
  message: 'Direction must be one of higher_is_better, lower_is_better',
});

export const ZKpi = z.object({
  id: z.string(),
  name: z.string(),
  current_value: z.number(),
  target_value: z.number().nullable(),
  unit: z.string().nullable(),
  /** Whether a higher or a lower value is better (issue 47 §1); progress and forecast follow it. */
  direction: ZKpiDirection,
  /** kpiProgress (goal-numbers.ts), rounded, 0 to 100. */
  progress: z.number(),
  /** The date of the latest check-in (issue 20 §1); null when none was recorded. */
  last_checkin_date: z.string().nullable(),
  /** isKpiStale(last_checkin_date, today): no check-in for KPI_STALE_DAYS days. */
  stale: z.boolean(),
  /** The latest check-ins (at most KPI_TREND_POINTS), oldest first: the KPI's trend chart. */
  trend: z.array(z.object({ date: z.string(), value: z.number() })),
  /** kpiForecast: the check-ins' linear trend at the due date; null with fewer than two check-ins. */
  forecast: z.object({ value_at_due: z.number(), on_track: z.boolean() }).nullable(),
});
export type TKpi = z.infer<typeof ZKpi>;

export const ZGoal = z.object({
  id: z.string(),
  user_id: z.string(),
  title: z.string(),
  description: z.string().nullable(),
  /** YYYY-MM-DD: where the straight line of expected progress starts (default: the day it was created). */
  start_date: z.string(),
  due_date: z.string(),
  status: ZGoalStatus,
  organization_id: z.string().nullable(),
  organization_name: z.string().nullable(),
  kpis: z.array(ZKpi),
  /** goalProgress(kpis), 0 to 100. */
  progress: z.number(),
  /** expectedProgress(start_date, due_date, today), 0 to 100. */
  expected_progress: z.number(),
  /** goalRisk: at risk and why (behind the straight line, a forecast missing its target, a stale KPI). */
  risk: z.object({ at_risk: z.boolean(), reasons: z.array(z.string()) }),
  /** The caller may edit and delete this goal (its owner, or an admin/manager of its organization). */
  can_edit: z.boolean(),
  can_delete: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type TGoal = z.infer<typeof ZGoal>;

const NUMBER_TEXT = /^[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/;
const MESSAGE_NUMBER = 'KPI values must be numbers';
/** A number, or its text from a form field; blank text and null become null. */
const ZNumberInput = z
  .union([z.number(), z.string().max(50), z.null()], { message: MESSAGE_NUMBER })
  .transform((v, ctx) => {
    if (v === null) return null;
    const s = typeof v === 'string' ? v.trim() : null;
    if (s === '') return null;
    const n = s === null ? (v as number) : NUMBER_TEXT.test(s) ? Number(s) : Number.NaN;
    if (Number.isFinite(n)) return n;
    ctx.addIssue({ code: 'custom', message: MESSAGE_NUMBER, input: v });
    return z.NEVER;
  });

export const ZKpiInput = z.strictObject({
  /** An existing KPI of this goal keeps its id; anything else gets a new one. */
  id: z.string().max(64).nullable().optional(),
  name: z.string({ message: 'KPI name is required.' }).trim().min(1, 'KPI name is required.').max(200),
  /** Missing or blank counts as 0. */
  current_value: ZNumberInput.optional().transform((n) => n ?? 0),
  /** Missing, blank or null: no target (the KPI counts 0 in progress). */
  target_value: ZNumberInput.optional().transform((n) => n ?? null),
  unit: ZOptionalText(50).optional(),
  direction: ZKpiDirection.default(DEFAULT_KPI_DIRECTION),
});
export type TKpiInput = z.input<typeof ZKpiInput>;

const ZGoalTitle = z.string({ message: GOAL_REQUIRED_MESSAGE }).trim().min(1, GOAL_REQUIRED_MESSAGE).max(300);
const ZGoalDueDate = z
  .string({ message: GOAL_REQUIRED_MESSAGE })
  .trim()
  .min(1, GOAL_REQUIRED_MESSAGE)
  .pipe(ZDateOnly);
export const GOAL_START_AFTER_DUE = 'Start date must be on or before the due date.';
/** Optional: a new goal starts the day it is created; an update left without it keeps the stored one. */
const ZGoalStartDate = ZDateOnly.optional();
const ZKpiList = z.array(ZKpiInput).max(MAX_KPIS_PER_GOAL, `At most ${MAX_KPIS_PER_GOAL} KPIs per goal`);

/** POST /api/strategic-goals/. user_id is accepted (spec payload) and ignored: the owner is the caller. */
export const ZCreateGoalRequest = z.strictObject({
  title: ZGoalTitle,
  description: ZOptionalBody(10000).optional(),
  start_date: ZGoalStartDate,
  due_date: ZGoalDueDate,
  status: ZGoalStatus.default(DEFAULT_GOAL_STATUS),
  kpis: ZKpiList.default([]),
  organization_id: ZRefId.nullable().optional(),
  user_id: ZRefId.nullable().optional(),
});
export type TCreateGoalRequest = z.input<typeof ZCreateGoalRequest>;

/**
 * PUT /api/strategic-goals/{id}: title and due date required; other fields left out stay as they
 * are; `kpis`, when sent, replaces the goal's whole KPI list.
 */
export const ZUpdateGoalRequest = z.strictObject({
  title: ZGoalTitle,
  description: ZOptionalBody(10000).optional(),
  start_date: ZGoalStartDate,
  due_date: ZGoalDueDate,
  status: ZGoalStatus.optional(),
  kpis: ZKpiList.optional(),
  organization_id: ZRefId.nullable().optional(),
  user_id: ZRefId.nullable().optional(),
});
export type TUpdateGoalRequest = z.input<typeof ZUpdateGoalRequest>;

export const ZGoalListQuery = z.object({
  search: ZSearch,
  status: ZGoalStatus.optional(),
  organization_id: ZRefId.optional(),
  sort_by: z.enum(GOAL_SORTS).default(DEFAULT_GOAL_SORT),
  /** `done` goals are hidden unless true (an explicit status filter always applies as given). */
  include_completed: ZQueryBool.default(false),
  skip: ZSkip,
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(100),
});
export type TGoalListQuery = z.input<typeof ZGoalListQuery>;
