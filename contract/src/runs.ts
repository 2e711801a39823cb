import { z } from 'zod';
import { ZRefId, ZSeqCursor } from './common.ts';

/**
 * Crew runs and flow runs (spec sections 4 and 7; ARCHITECTURE.md section 6).
 *
 * Crew run lifecycle: POST creates it `pending`; the worker moves it to `running`; a task that needs a
 * person emits `human_prompt` and sets `awaiting_human_input`; continue sets `running` again; the run
 * ends with `crew_end` (completed) or `crew_error` (failed; stop also ends it this way).
 * Flow run lifecycle: `running`; `wait_for_human` sets `paused`; continue sets `running`; a `result`
 * event carries the result; `terminal` finishes it (failed when its summary contains "fail").
 */

export const CREW_RUN_STATUSES = [
  'running',
  'pending',
  'started',
  'awaiting_human_input',
  'completed',
  'failed',
] as const;
export type TCrewRunStatus = (typeof CREW_RUN_STATUSES)[number];
/** On opening a conversation the first run in one of these is resumed. */
export const ACTIVE_CREW_RUN_STATUSES: readonly TCrewRunStatus[] = [
  'running',
  'pending',
  'started',
  'awaiting_human_input',
];

export const FLOW_RUN_STATUSES = ['running', 'paused', 'completed', 'failed'] as const;
export type TFlowRunStatus = (typeof FLOW_RUN_STATUSES)[number];
export const ACTIVE_FLOW_RUN_STATUSES: readonly TFlowRunStatus[] = ['running', 'paused'];

/** Timeline event types. Terminal ones end the run (and the SSE stream). */
export const CREW_EVENT_TYPES = [
  'crew_start',
  'task_start',
  'thought',
  'tool_call',
  'tool_result',
  'task_output',
  'human_prompt',
  'human_input',
  'approval_required',
  'approval_granted',
  'approval_rejected',
  'log',
  'crew_end',
  'crew_error',
  'terminal',
] as const;
export const FLOW_EVENT_TYPES = [
  'flow_start',
  'step_start',
  'thought',
  'tool_call',
  'tool_result',
  'step_output',
  'wait_for_human',
  'human_input',
  'approval_required',
  'approval_granted',
  'approval_rejected',
  'log',
  'result',
  'terminal',
] as const;
export const RUN_EVENT_TYPES = [...new Set([...CREW_EVENT_TYPES, ...FLOW_EVENT_TYPES])] as [
  string,
  ...string[],
];
export type TRunEventType = (typeof CREW_EVENT_TYPES)[number] | (typeof FLOW_EVENT_TYPES)[number];
export const TERMINAL_RUN_EVENT_TYPES = ['terminal', 'crew_end', 'crew_error'] as const;

export function isTerminalRunEvent(type: string): boolean {
  return (TERMINAL_RUN_EVENT_TYPES as readonly string[]).includes(type);
}
/** Spec section 4: crew_error, or a terminal summary containing "fail", means failed. */
export function runOutcomeOf(type: string, summary: string): 'completed' | 'failed' {
  return type === 'crew_error' || /fail/i.test(summary) ? 'failed' : 'completed';
}

export const RUN_STOPPED_SUMMARY = 'Run failed: stopped by the user';
export const CREW_INPUT_REQUIRED = 'This crew needs input: enter at least one non-blank answer';
export const RUN_ALREADY_ACTIVE = 'A crew or flow is already running in this conversation';
export const RUN_NOT_WAITING = 'This run is not waiting for input';
export const RUN_NOT_ACTIVE = 'This run has already finished';
export const USER_INPUT_REQUIRED = 'An answer is required';

/**
 * One timeline entry (`run_events` row). `id` is the monotonic sequence number as text; it is also the
 * SSE event id, so `Last-Event-ID` resumes after it. `details` by type:
 * - task_start/step_start: {position, name, agent?}
 * - thought: {text}; tool_call: {tool, input}; tool_result: {tool, output, error?}
 * - task_output/step_output: {position, name, output}
 * - human_prompt/wait_for_human: {prompt, position}; human_input: {user_input}
 * - result/crew_end: {result}; crew_error/terminal: {error?}
 * - approval_required: {approval_id, tool, method, url, headers, body, arguments, gate_reason, position};
 *   approval_granted: {approval_id, edited}; approval_rejected: {approval_id, reason}
 */
export const ZRunEvent = z.object({
  id: z.string(),
  run_id: z.string(),
  type: z.string(),
  summary: z.string(),
  details: z.record(z.string(), z.unknown()).nullable(),
  ts: z.string(),
  /** The run's conversation, when it has one. */
  thread_id: z.string().nullable(),
});
export type TRunEvent = z.infer<typeof ZRunEvent>;
/** SSE: each message is `event: run_event`, `id: <seq>`, `data: TRunEvent`; the stream closes after a terminal one. */
export const RUN_SSE_EVENT = 'run_event';

const runFields = {
  conversation_id: z.string().nullable(),
  inputs: z.record(z.string(), z.string()),
  /** Final output (markdown) once completed. */
  result: z.string().nullable(),
  error: z.string().nullable(),
  /** Index of the task or step being worked on (0-based). */
  current_step: z.number().int(),
  /** The question awaiting an answer (status awaiting_human_input / paused), else null. */
  human_prompt: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  finished_at: z.string().nullable(),
};

export const ZCrewRun = z.object({
  id: z.string(),
  crew_run_id: z.string(),
  crew_id: z.string(),
  crew_name: z.string(),
  status: z.enum(CREW_RUN_STATUSES),
  ...runFields,
});
export type TCrewRun = z.infer<typeof ZCrewRun>;

export const ZFlowRun = z.object({
  id: z.string(),
  flow_run_id: z.string(),
  flow_id: z.string(),
  flow_name: z.string(),
  status: z.enum(FLOW_RUN_STATUSES),
  ...runFields,
});
export type TFlowRun = z.infer<typeof ZFlowRun>;

/** Run inputs: field name → answer (the crew's input fields, or initial_goal). */
export const ZRunInputs = z
  .record(z.string().min(1).max(64), z.string().max(20_000))
  .refine((r) => Object.keys(r).length <= 30, 'Too many inputs')
  .default({});

/** POST /api/crew-runs/?conversation_id= and POST /api/conversations/{id}/crew-runs. */
export const ZStartCrewRunRequest = z.strictObject({
  crew_id: z.string({ message: 'crew_id is required' }).min(1).max(64),
  inputs: ZRunInputs,
});
export type TStartCrewRunRequest = z.input<typeof ZStartCrewRunRequest>;

/** POST /api/flow-runs/?conversation_id=. */
export const ZStartFlowRunRequest = z.strictObject({
  flow_id: z.string({ message: 'flow_id is required' }).min(1).max(64),
  inputs: ZRunInputs,
});
export type TStartFlowRunRequest = z.input<typeof ZStartFlowRunRequest>;

export const ZRunConversationQuery = z.object({
  conversation_id: ZRefId.optional(),
});

/** 201 answers of the starts. */
export const ZStartCrewRunResponse = z.object({
  crew_run_id: z.string(),
  status: z.enum(CREW_RUN_STATUSES),
  conversation_id: z.string().nullable(),
});
export type TStartCrewRunResponse = z.infer<typeof ZStartCrewRunResponse>;
export const ZStartFlowRunResponse = z.object({
  flow_run_id: z.string(),
  status: z.enum(FLOW_RUN_STATUSES),
  conversation_id: z.string().nullable(),
});
export type TStartFlowRunResponse = z.infer<typeof ZStartFlowRunResponse>;

/** POST /api/{crew,flow}-runs/{id}/continue. */
export const ZContinueRunRequest = z.strictObject({
  user_input: z
    .string({ message: USER_INPUT_REQUIRED })
    .max(20_000)
    .refine((s) => s.trim() !== '', USER_INPUT_REQUIRED),
});
export type TContinueRunRequest = z.input<typeof ZContinueRunRequest>;

/** GET /api/{crew,flow}-runs/?conversation_id=: newest first, at most 100. */
export const ZCrewRunList = z.array(ZCrewRun);
export const ZFlowRunList = z.array(ZFlowRun);

/** GET /api/{crew,flow}-runs/{id}/timeline?after=&limit=: oldest first; page on with `after` = last id. */
export const ZTimelineQuery = z.object({
  after: ZSeqCursor(0).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(500),
});
export const ZCrewRunTimeline = ZCrewRun.extend({ timeline: z.array(ZRunEvent) });
export type TCrewRunTimeline = z.infer<typeof ZCrewRunTimeline>;
export const ZFlowRunTimeline = ZFlowRun.extend({ timeline: z.array(ZRunEvent) });
export type TFlowRunTimeline = z.infer<typeof ZFlowRunTimeline>;
