import { ZRecordCitation } from './citations.ts';
import { z } from 'zod';
import { ZRefId } from './common.ts';
import { ZDateOnly, ZOptionalBody } from './fields.ts';
import { TASK_PRIORITIES, TASK_TITLE_REQUIRED, ZTask, ZTaskPriority } from './tasks.ts';

/**
 * AI task suggestions (spec sections 2, 3, 4, 7): the ceo generates suggestions from goals whose KPIs
 * lag, overdue goals and unassigned work; reviews them (edit); approves them (each becomes a task) or
 * rejects them with a reason. A suggestion is never made twice: not while pending, not after it was
 * approved or rejected, and not when an open task already has its title.
 */

export const TASK_SUGGESTION_STATUSES = ['pending', 'approved', 'rejected'] as const;
export type TTaskSuggestionStatus = (typeof TASK_SUGGESTION_STATUSES)[number];
export const TASK_SUGGESTION_SOURCES = ['kpi', 'goal', 'task'] as const;

export const NO_NEW_SUGGESTIONS = 'No new suggestions';
export const TASK_SUGGESTIONS_CEO_ONLY = 'Only a CEO can use AI task suggestions.';
export const REJECTION_REASON_REQUIRED = 'A reason is required to reject a suggestion.';
export const SUGGESTION_NOT_PENDING = 'This suggestion was already approved or rejected.';
/** Toasts (spec section 8). */
export const GENERATE_TASKS_FAILED = 'Failed to generate tasks';
export const APPROVE_TASKS_FAILED = 'Unable to approve tasks';
export const REJECT_SUGGESTION_FAILED = 'Failed to reject suggestion';
/** The Generate tasks button shows "Tasks ready!" this long, then goes back to idle (spec section 9). */
export const TASKS_READY_RESET_MS = 4000;
/** Pending suggestions listed at most. */
export const MAX_PENDING_SUGGESTIONS = 100;
/** New suggestions made by one generate call at most. */
export const MAX_NEW_SUGGESTIONS = 10;

export const ZTaskSuggestion = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string().nullable(),
  assignee_user_id: z.string().nullable(),
  priority: z.enum(TASK_PRIORITIES),
  due_date: z.string().nullable(),
  /** Why the AI suggests it (the lagging KPI, the overdue goal, the unassigned task). */
  llm_context: z.string().nullable(),
  rejection_reason: z.string().nullable(),
  status: z.enum(TASK_SUGGESTION_STATUSES),
  /** What it came from, for citation: kpi, goal or task and its id. */
  source_type: z.string().nullable(),
  source_id: z.string().nullable(),
  /** The record it came from, when the reader may still see it (issue 20 §3); empty otherwise. */
  citations: z.array(ZRecordCitation),
  /** The organization the task is shared with when approved. */
  organization_id: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type TTaskSuggestion = z.infer<typeof ZTaskSuggestion>;

/** POST /api/task-suggestions/generate. */
export const ZGenerateSuggestionsResponse = z.object({
  /** The suggestions this call added (empty with "No new suggestions"). */
  suggestions: z.array(ZTaskSuggestion),
  message: z.string(),
});
export type TGenerateSuggestionsResponse = z.infer<typeof ZGenerateSuggestionsResponse>;

/** One reviewed suggestion: its id and the fields as edited in the review dialog. */
export const ZApprovedSuggestion = z.strictObject({
  id: z.string().min(1).max(64),
  title: z.string({ message: TASK_TITLE_REQUIRED }).trim().min(1, TASK_TITLE_REQUIRED).max(500),
  description: ZOptionalBody(20_000).optional(),
  assignee_user_id: ZRefId.nullable().optional(),
  priority: ZTaskPriority.optional(),
  due_date: ZDateOnly.nullable().optional(),
  // Read-only fields a client may echo back unchanged; ignored.
  llm_context: z.string().nullable().optional(),
  citations: z.array(ZRecordCitation).max(50).optional(),
  rejection_reason: z.string().nullable().optional(),
  status: z.string().optional(),
  source_type: z.string().nullable().optional(),
  source_id: ZRefId.nullable().optional(),
  organization_id: ZRefId.nullable().optional(),
  created_at: z.string().optional(),
  updated_at: z.string().optional(),
});
export type TApprovedSuggestion = z.input<typeof ZApprovedSuggestion>;

const ZApprovedList = z
  .array(ZApprovedSuggestion)
  .min(1, 'Select at least one suggestion')
  .max(MAX_PENDING_SUGGESTIONS);

/** POST /api/task-suggestions/approve: the list of edited suggestions (or {suggestions: [...]}). */
export const ZApproveSuggestionsRequest = z
  .union([ZApprovedList, z.strictObject({ suggestions: ZApprovedList })])
  .transform((v) => (Array.isArray(v) ? v : v.suggestions));
export type TApproveSuggestionsRequest = z.input<typeof ZApproveSuggestionsRequest>;

export const ZApproveSuggestionsResponse = z.object({
  tasks: z.array(ZTask),
  message: z.string(),
});
export type TApproveSuggestionsResponse = z.infer<typeof ZApproveSuggestionsResponse>;

/** POST /api/task-suggestions/{id}/reject. */
export const ZRejectSuggestionRequest = z.strictObject({
  reason: z
    .string({ message: REJECTION_REASON_REQUIRED })
    .max(2000)
    .transform((s) => s.trim())
    .refine((s) => s !== '', REJECTION_REASON_REQUIRED),
});
export type TRejectSuggestionRequest = z.input<typeof ZRejectSuggestionRequest>;

/** The JSON a model (or the offline handler `task-suggestions`) answers with. */
export const ZModelSuggestion = z.object({
  title: z.string().trim().min(1).max(500),
  description: z.string().max(20_000).nullable().optional(),
  assignee_user_id: ZRefId.nullable().optional(),
  priority: z.enum(TASK_PRIORITIES).catch('Medium'),
  due_date: ZDateOnly.nullable().optional().catch(null),
  llm_context: z.string().max(2000).nullable().optional(),
  source_type: z.enum(TASK_SUGGESTION_SOURCES).nullable().optional().catch(null),
  source_id: ZRefId.nullable().optional(),
});
export type TModelSuggestion = z.infer<typeof ZModelSuggestion>;

/** The key two suggestion titles are compared by: lower case, letters and digits, single spaces. */
export function suggestionTitleKey(title: string): string {
  return title
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
    .slice(0, 300);
}
