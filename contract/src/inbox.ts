import { z } from 'zod';
import { ZJsonObject, ZPageQuery } from './common.ts';

/**
 * The approvals inbox (issue 19 section 2): one queue of everything waiting for the signed-in
 * person, oldest first. Each item comes from a source (a task suggestion, a run waiting for input
 * or approval, an AI-drafted comms reply); acting here is the same as acting in the source's screen.
 */

export const INBOX_KINDS = [
  'task_suggestion',
  'run_input',
  'tool_approval',
  'comms_draft',
  'interrupted_call',
] as const;
export type TInboxKind = (typeof INBOX_KINDS)[number];
export const INBOX_STATUSES = ['pending', 'approved', 'rejected', 'resolved'] as const;
export type TInboxStatus = (typeof INBOX_STATUSES)[number];

export const INBOX_NOT_FOUND = 'Inbox item not found';
export const INBOX_ALREADY_SETTLED = 'This item was already handled.';
export const INBOX_REASON_REQUIRED = 'A reason is required to reject.';
export const INBOX_DELEGATE_SAME_ORG = 'Delegate to another member of the same organization.';
export const INBOX_ANSWER_REQUIRED = 'An answer is required to continue the run.';
/** The per-user stream's message: the list or the count changed (the page reloads both). */
export const INBOX_CHANGED_EVENT = 'inbox_changed';

/** What each kind is called on the page. */
export const INBOX_KIND_LABELS: Record<TInboxKind, string> = {
  task_suggestion: 'Task suggestion',
  run_input: 'Run waiting for input',
  tool_approval: 'Tool call to approve',
  comms_draft: 'AI-drafted reply',
  interrupted_call: 'Interrupted call',
};

export const ZInboxItem = z.object({
  id: z.string(),
  kind: z.enum(INBOX_KINDS),
  title: z.string(),
  summary: z.string(),
  created_at: z.string(),
  /** Where it came from: the record's type and id, and the screen that shows it. */
  source: z.object({ type: z.string(), id: z.string(), url: z.string() }),
  assignee_user_id: z.string(),
  /** The editable fields and what the AI based it on (`based_on`), per kind. */
  details: z.record(z.string(), z.unknown()),
});
export type TInboxItem = z.infer<typeof ZInboxItem>;

export const ZInboxListQuery = ZPageQuery;
export const ZInboxList = z.object({ items: z.array(ZInboxItem), total: z.number().int() });
export type TInboxList = z.infer<typeof ZInboxList>;
export const ZInboxCount = z.object({ count: z.number().int() });
export type TInboxCount = z.infer<typeof ZInboxCount>;

/** POST /api/inbox/{id}/approve: optional edits of the item's `details` fields. */
export const ZInboxApproveRequest = z
  .strictObject({ edits: ZJsonObject(40_000).optional() })
  .optional()
  .transform((v) => v ?? {});
export type TInboxApproveRequest = z.input<typeof ZInboxApproveRequest>;

export const ZInboxRejectRequest = z.strictObject({
  reason: z
    .string({ message: INBOX_REASON_REQUIRED })
    .max(2000)
    .transform((s) => s.trim())
    .refine((s) => s !== '', INBOX_REASON_REQUIRED),
});
export type TInboxRejectRequest = z.input<typeof ZInboxRejectRequest>;

export const ZInboxDelegateRequest = z.strictObject({ user_id: z.string().min(1).max(64) });
export type TInboxDelegateRequest = z.input<typeof ZInboxDelegateRequest>;

/** The answer of every action: the item's status after it. */
export const ZInboxActionResponse = z.object({
  id: z.string(),
  status: z.enum(INBOX_STATUSES),
  assignee_user_id: z.string(),
});
export type TInboxActionResponse = z.infer<typeof ZInboxActionResponse>;
