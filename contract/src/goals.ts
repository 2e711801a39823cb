import { z } from 'zod';
import { MAX_PAGE_SIZE, ZRefId, ZSkip } from './common.ts';
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

// ---- progress: the one implementation, used by the server (API `progress`) and the web ----

export interface KpiValues {
  current_value?: number | null;
  target_value?: number | null;
}

const finite = (n: number | null | undefined): n is number => typeof n === 'number' && Number.isFinite(n);

/**
 * KPI progress in percent, 0 to 100 (not rounded): current / target, capped at 100. A KPI without a
 * positive target (null, 0 or negative) counts 0; a negative current value counts 0.
 */
export function kpiProgress(kpi: KpiValues): number {
  const { current_value: current, target_value: target } = kpi;
  if (!finite(target) || target <= 0 || !finite(current)) return 0;
  return Math.min(100, Math.max(0, (current / target) * 100));
}

/** Goal progress: the average of its KPIs' progress, capped at 100 and rounded; no KPIs → 0. */
export function goalProgress(kpis: readonly KpiValues[] | null | undefined): number {
  if (!kpis || kpis.length === 0) return 0;
  const sum = kpis.reduce((acc, k) => acc + kpiProgress(k), 0);
  return Math.min(100, Math.round(sum / kpis.length));
}

// ---- API shapes ----

export const ZKpi = z.object({
  id: z.string(),
  name: z.string(),
  current_value: z.number(),
  target_value: z.number().nullable(),
  unit: z.string().nullable(),
  /** The date of the latest check-in (issue 20 §1); null when none was recorded. */
  last_checkin_date: z.string().nullable(),
  /** isKpiStale(last_checkin_date, today): no check-in for KPI_STALE_DAYS days. */
  stale: z.boolean(),
  /** The latest check-ins (at most KPI_TREND_POINTS), oldest first: the KPI's trend chart. */
  trend: z.array(z.object({ date: z.string(), value: z.number() })),
});
export type TKpi = z.infer<typeof ZKpi>;

export const ZGoal = z.object({
  id: z.string(),
  user_id: z.string(),
  title: z.string(),
  description: z.string().nullable(),
  due_date: z.string(),
  status: ZGoalStatus,
  organization_id: z.string().nullable(),
  organization_name: z.string().nullable(),
  kpis: z.array(ZKpi),
  /** goalProgress(kpis), 0 to 100. */
  progress: z.number(),
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
});
export type TKpiInput = z.input<typeof ZKpiInput>;

const ZGoalTitle = z.string({ message: GOAL_REQUIRED_MESSAGE }).trim().min(1, GOAL_REQUIRED_MESSAGE).max(300);
const ZGoalDueDate = z
  .string({ message: GOAL_REQUIRED_MESSAGE })
  .trim()
  .min(1, GOAL_REQUIRED_MESSAGE)
  .pipe(ZDateOnly);
const ZKpiList = z.array(ZKpiInput).max(MAX_KPIS_PER_GOAL, `At most ${MAX_KPIS_PER_GOAL} KPIs per goal`);

/** POST /api/strategic-goals/. user_id is accepted (spec payload) and ignored: the owner is the caller. */
export const ZCreateGoalRequest = z.strictObject({
  title: ZGoalTitle,
  description: ZOptionalBody(10000).optional(),
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
