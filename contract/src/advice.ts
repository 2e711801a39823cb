import { ZRecordCitation } from './citations.ts';
import { z } from 'zod';
import { MAX_PAGE_SIZE, ZRefId, ZSkip } from './common.ts';
import { ZOptionalBody, ZOptionalText } from './fields.ts';

export const ADVICE_CONTENT_REQUIRED = 'Content required';
/** The advice preview is 80 px tall with Show More / Show Less (spec section 9). */
export const ADVICE_PREVIEW_HEIGHT_PX = 80;
/** Info toast and the message of POST /api/flow/run/strategic_flow. */
export const ADVICE_GENERATION_STARTED = 'Advice generation started';
/** Error toast title when the start fails (the error's message is its description). */
export const ADVICE_GENERATION_ERROR = 'Error starting advice flow';
/** While a generation is in flight the dashboard re-reads its status this often. */
export const ADVICE_GENERATION_POLL_MS = 2000;

export const ZAdvice = z.object({
  id: z.string(),
  advice_title: z.string().nullable(),
  /** Markdown; render sanitized. */
  content: z.string(),
  feedback: z.string().nullable(),
  crew_run_id: z.string().nullable(),
  user_id: z.string(),
  organization_id: z.string().nullable(),
  /** The caller may edit, delete and give feedback (owner, or an admin/manager of its organization). */
  can_edit: z.boolean(),
  /** The records generated advice used, those the reader may see (issue 20 §3); empty: none. */
  citations: z.array(ZRecordCitation),
  created_at: z.string(),
  updated_at: z.string(),
});
export type TAdvice = z.infer<typeof ZAdvice>;

const ZContent = z
  .string({ message: ADVICE_CONTENT_REQUIRED })
  .max(100_000)
  .refine((s) => s.trim() !== '', ADVICE_CONTENT_REQUIRED);

const adviceFields = {
  advice_title: ZOptionalText(300).optional(),
  content: ZContent,
  feedback: ZOptionalBody(10_000).optional(),
  crew_run_id: ZRefId.nullable().optional(),
  organization_id: ZRefId.nullable().optional(),
  /** Accepted (spec payload) and ignored: the owner is the caller. */
  user_id: ZRefId.nullable().optional(),
  /** Read-only (the generator sets them); a client may echo them back, ignored. */
  citations: z.array(ZRecordCitation).max(50).optional(),
};

/** POST /api/strategic-advice/. */
export const ZCreateAdviceRequest = z.strictObject(adviceFields);
export type TCreateAdviceRequest = z.input<typeof ZCreateAdviceRequest>;

/** PUT /api/strategic-advice/{id}: content required; other fields left out stay as they are. */
export const ZUpdateAdviceRequest = z.strictObject(adviceFields);
export type TUpdateAdviceRequest = z.input<typeof ZUpdateAdviceRequest>;

/** PATCH /api/strategic-advice/{id}/feedback: the dashboard's feedback box; blank clears it. */
export const ZAdviceFeedbackRequest = z.strictObject({
  feedback: ZOptionalBody(10_000),
});
export type TAdviceFeedbackRequest = z.input<typeof ZAdviceFeedbackRequest>;

/** Newest first; the dashboard asks for limit=1. */
export const ZAdviceListQuery = z.object({
  organization_id: ZRefId.optional(),
  skip: ZSkip,
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(100),
});
export type TAdviceListQuery = z.input<typeof ZAdviceListQuery>;

/**
 * POST /api/flow/run/strategic_flow (Generate Advice). `inputs.user_id` names whose advice to
 * generate: the caller (default), or anyone for an admin.
 */
/** The strategic flow's inputs, serialised. */
export const FLOW_INPUTS_MAX_CHARS = 20_000;

export const ZStrategicFlowRequest = z
  .object({
    inputs: z
      .object({ user_id: ZRefId.nullable().optional() })
      .catchall(z.unknown())
      // Other inputs are kept with the run as JSON text: bounded like any stored field.
      .refine((v) => JSON.stringify(v).length <= FLOW_INPUTS_MAX_CHARS, {
        message: `At most ${FLOW_INPUTS_MAX_CHARS} characters of JSON`,
      })
      .optional(),
  })
  .nullish();
export type TStrategicFlowRequest = z.input<typeof ZStrategicFlowRequest>;

/** The strategic flow run's own status (a flow run is running, paused, completed or failed). */
export const ADVICE_GENERATION_STATUSES = ['running', 'paused', 'completed', 'failed'] as const;
/** The message of a paused Generate Advice run (a step waits for a person). */
export const ADVICE_GENERATION_PAUSED = 'Advice generation is waiting for input';
export type TAdviceGenerationStatus = (typeof ADVICE_GENERATION_STATUSES)[number];

/** A Generate Advice run: POST answers it at once (status running); GET /api/flow/runs/{id} follows it. */
export const ZAdviceGeneration = z.object({
  /** The run id (also `flow_run_id`, the field the flow engine answers with). */
  id: z.string(),
  flow_run_id: z.string(),
  flow: z.literal('strategic_flow'),
  status: z.enum(ADVICE_GENERATION_STATUSES),
  user_id: z.string(),
  /** The advice written at the end (completed). */
  advice_id: z.string().nullable(),
  /** Why it failed (failed). */
  error: z.string().nullable(),
  message: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  finished_at: z.string().nullable(),
});
export type TAdviceGeneration = z.infer<typeof ZAdviceGeneration>;
