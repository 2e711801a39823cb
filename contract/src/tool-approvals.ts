import { z } from 'zod';

/**
 * Approval gates on side effects (issue 19 section 1). A run that reaches a gated tool call pauses
 * before it (crew: awaiting_human_input, flow: paused) with an `approval_required` timeline event
 * whose details are a TToolCallView plus `approval_id`; its runner approves (optionally with edited
 * arguments), or rejects with a reason the agent gets as the tool's result.
 */

/**
 * `interrupted`: an approved call was cut (a crash, a lost lease) after it was claimed; it is never
 * sent again on its own and the run waits for the person to say what happened. `stopped`: final, the
 * run was stopped instead (issue 46 row 8).
 */
export const TOOL_APPROVAL_STATUSES = [
  'pending',
  'approved',
  'rejected',
  'executing',
  'done',
  'interrupted',
  'stopped',
] as const;
export type TToolApprovalStatus = (typeof TOOL_APPROVAL_STATUSES)[number];

/**
 * Why a call waits: the tool requires approval, the run uses someone else's item, or a model chose
 * the arguments of a call to a destination nobody marked side-effect-free (issue 46 row 5).
 */
export const TOOL_GATE_REASONS = ['requires_approval', 'foreign_item', 'model_arguments'] as const;
export type TToolGateReason = (typeof TOOL_GATE_REASONS)[number];

/** Timeline event types of the gate. */
export const APPROVAL_REQUIRED_EVENT = 'approval_required';
export const APPROVAL_GRANTED_EVENT = 'approval_granted';
export const APPROVAL_REJECTED_EVENT = 'approval_rejected';

/** Timeline events of an interrupted call: the run asks, then the person's answer. */
export const CALL_INTERRUPTED_EVENT = 'call_interrupted';
export const CALL_INTERRUPTION_ANSWERED_EVENT = 'call_interruption_answered';

export const INTERRUPTED_CALL_QUESTION = 'This call was interrupted; did it go through?';
export const INTERRUPTED_CALL_ANSWERS = ['went_through', 'retry', 'stop'] as const;
export type TInterruptedCallAnswer = (typeof INTERRUPTED_CALL_ANSWERS)[number];
export const INTERRUPTED_CALL_ANSWER_LABELS: Record<TInterruptedCallAnswer, string> = {
  went_through: 'It went through',
  retry: 'It did not, retry',
  stop: 'Stop the run',
};
export const INTERRUPTED_CALL_ANSWER_REQUIRED =
  'Choose an answer: it went through, it did not (retry), or stop the run.';
export const INTERRUPTED_CALL_NOT_WAITING = 'This call is not waiting for an answer';
/** What the agent gets as the call's result when the person says it went through. */
export const INTERRUPTED_CALL_WENT_THROUGH_RESULT =
  'This call was interrupted before its response was kept; the person confirmed it went through.';
/** The run's error when the person stops it there. */
export const INTERRUPTED_CALL_STOPPED = 'Stopped by the user after an interrupted call';

export const APPROVAL_REASON_REQUIRED = 'A reason is required';
export const APPROVAL_ALREADY_DECIDED = 'This call was already approved or rejected';
export const RUN_AWAITS_APPROVAL = 'This run is waiting for a tool call to be approved or rejected';
export const APPROVAL_NOT_FOUND = 'Approval not found';
/** A delegate decides the call as it is shown: only the run's owner may change what it sends. */
export const APPROVAL_EDIT_OWNER_ONLY =
  "Only the run's owner can change a call's arguments; approve or reject it as shown.";
export const PUBLIC_ITEMS_ADMIN_ONLY = 'Only a platform administrator can make a factory item public.';

/** The exact call that waits: what leaves the building if it is approved. */
export const ZToolCallView = z.object({
  tool: z.string(),
  method: z.string(),
  /** The destination as it will be called (query string included for GET). */
  url: z.string(),
  /** The headers sent, secrets redacted. */
  headers: z.record(z.string(), z.string()),
  /** The JSON body sent (null for GET: the arguments are in the URL). */
  body: z.record(z.string(), z.unknown()).nullable(),
});
export type TToolCallView = z.infer<typeof ZToolCallView>;

export const ZToolApproval = ZToolCallView.extend({
  id: z.string(),
  run_id: z.string(),
  tool_id: z.string(),
  /** The call's arguments (after an edit, the edited ones). */
  arguments: z.record(z.string(), z.unknown()),
  gate_reason: z.enum(TOOL_GATE_REASONS),
  status: z.enum(TOOL_APPROVAL_STATUSES),
  edited: z.boolean(),
  reason: z.string().nullable(),
  decided_at: z.string().nullable(),
  created_at: z.string(),
});
export type TToolApproval = z.infer<typeof ZToolApproval>;

/** GET /api/runs/{id}/approvals: the run's gated calls, oldest first. */
export const ZToolApprovalList = z.object({ items: z.array(ZToolApproval) });
export type TToolApprovalList = z.infer<typeof ZToolApprovalList>;

export const ZRunApprovalParams = z.object({
  id: z.string().min(1).max(64),
  approvalId: z.string().min(1).max(64),
});

/**
 * POST /api/runs/{id}/approvals/{approvalId}/approve. `edits.arguments` replaces the call's
 * arguments (Edit, then run); the tool, method and destination cannot be changed.
 */
export const ZApproveToolCallRequest = z
  .strictObject({
    edits: z
      .strictObject({
        arguments: z
          .record(z.string().max(200), z.unknown())
          .refine((r) => JSON.stringify(r).length <= 20_000, 'The arguments are too long'),
      })
      .optional(),
  })
  .default({});
export type TApproveToolCallRequest = z.input<typeof ZApproveToolCallRequest>;

/** POST /api/runs/{id}/approvals/{approvalId}/reject: the reason (non-blank) becomes the tool's result. */
export const ZRejectToolCallRequest = z.strictObject({
  reason: z
    .string({ message: APPROVAL_REASON_REQUIRED })
    .max(2_000)
    .refine((s) => s.trim() !== '', APPROVAL_REASON_REQUIRED),
});
export type TRejectToolCallRequest = z.input<typeof ZRejectToolCallRequest>;

/** POST /api/runs/{id}/approvals/{approvalId}/answer: what became of an interrupted call. */
export const ZAnswerInterruptedCallRequest = z.strictObject({
  answer: z.enum(INTERRUPTED_CALL_ANSWERS, { message: INTERRUPTED_CALL_ANSWER_REQUIRED }),
});
export type TAnswerInterruptedCallRequest = z.input<typeof ZAnswerInterruptedCallRequest>;
