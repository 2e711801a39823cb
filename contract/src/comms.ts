import { ZRecordCitation } from './citations.ts';
import { z } from 'zod';
import { MAX_PAGE_SIZE, ZSeqCursor, ZSkip } from './common.ts';

/** Spec section 9: "Preview text is cut to 30 characters." */
export const COMMS_PREVIEW_LENGTH = 30;
/** Added when the recipient ignores an AI suggestion (spec: Comms Center). */
export const COMMS_SUGGESTION_DISMISSED_TEXT = 'AI suggestion dismissed by user.';
/** Spec section 9: mock replies in comms arrive after 800 to 2000 ms. */
export const COMMS_DEMO_REPLY_MIN_MS = 800;
export const COMMS_DEMO_REPLY_MAX_MS = 2000;
export const COMMS_MESSAGE_MAX = 4000;
export const COMMS_THREADS_PAGE_SIZE = 50;
export const COMMS_MESSAGES_PAGE_SIZE = 50;
export const COMMS_MAX_PARTICIPANTS = 20;
export const COMMS_MESSAGE_REQUIRED = 'Message text is required.';

/** The first 30 characters of a message, with "..." when it was longer. */
export function commsPreview(text: string | null | undefined): string | null {
  if (text == null) return null;
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > COMMS_PREVIEW_LENGTH ? `${flat.slice(0, COMMS_PREVIEW_LENGTH)}...` : flat;
}

export const ZCommsParticipant = z.object({
  id: z.string(),
  name: z.string(),
  role: z.string().nullable(),
  email: z.string(),
});
export type TCommsParticipant = z.infer<typeof ZCommsParticipant>;

/**
 * A thread as the caller sees it. `name` is the caller's own label for it (Edit Name), else the
 * other participants' names; other_user_* name the first other participant (spec entity fields).
 */
export const ZCommsThread = z.object({
  id: z.string(),
  name: z.string(),
  custom_name: z.string().nullable(),
  participants: z.array(ZCommsParticipant),
  other_user_id: z.string().nullable(),
  other_user_name: z.string().nullable(),
  other_user_role: z.string().nullable(),
  last_message_preview: z.string().nullable(),
  current_ai_suggestion_id: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type TCommsThread = z.infer<typeof ZCommsThread>;

export const COMMS_MESSAGE_KINDS = ['user', 'system'] as const;

/** A thread message; also the data of each event of the thread's stream. */
export const ZCommsMessage = z.object({
  id: z.string(),
  /** The stream cursor: increases with every message. */
  seq: z.number().int(),
  thread_id: z.string(),
  conversation_id: z.string(),
  kind: z.enum(COMMS_MESSAGE_KINDS),
  sender_id: z.string().nullable(),
  sender_name: z.string(),
  text: z.string(),
  timestamp: z.string(),
  ai_suggested: z.boolean(),
});
export type TCommsMessage = z.infer<typeof ZCommsMessage>;

export const COMMS_SUGGESTION_STATUSES = ['pending', 'ready'] as const;

/** The caller's current suggested reply in a thread (pending while it is being written). */
export const ZCommsSuggestion = z.object({
  id: z.string(),
  thread_id: z.string(),
  status: z.enum(COMMS_SUGGESTION_STATUSES),
  text: z.string(),
  context: z.string().nullable(),
  /** The records the AI drafted it from, those the reader may see (issue 20 §3); empty: none. */
  citations: z.array(ZRecordCitation),
  created_at: z.string(),
  updated_at: z.string(),
});
export type TCommsSuggestion = z.infer<typeof ZCommsSuggestion>;

export const ZCommsSuggestionResponse = z.object({ suggestion: ZCommsSuggestion.nullable() });
export type TCommsSuggestionResponse = z.infer<typeof ZCommsSuggestionResponse>;

const ZMessageText = z
  .string({ message: COMMS_MESSAGE_REQUIRED })
  .max(COMMS_MESSAGE_MAX, `A message has at most ${COMMS_MESSAGE_MAX} characters.`)
  .refine((s) => s.trim().length > 0, COMMS_MESSAGE_REQUIRED);

/** POST /api/comms/threads: the people to talk to (the caller is added; may be listed). */
export const ZCreateThreadRequest = z.strictObject({
  participant_ids: z
    .array(z.string().min(1).max(64))
    .min(1, 'Choose at least one person.')
    .max(COMMS_MAX_PARTICIPANTS),
});
export type TCreateThreadRequest = z.input<typeof ZCreateThreadRequest>;

/** PATCH /api/comms/threads/{id}: the caller's label for the thread; blank restores the default. */
export const ZRenameThreadRequest = z.strictObject({
  name: z.string().max(200).nullable(),
});
export type TRenameThreadRequest = z.input<typeof ZRenameThreadRequest>;

/** POST /api/comms/threads/{id}/messages. */
export const ZSendMessageRequest = z.strictObject({ text: ZMessageText });
export type TSendMessageRequest = z.input<typeof ZSendMessageRequest>;

/** POST /api/comms/threads/{id}/suggestion/use: the (edited) suggestion is sent as a message. */
export const ZUseSuggestionRequest = z.strictObject({ text: ZMessageText });
export type TUseSuggestionRequest = z.input<typeof ZUseSuggestionRequest>;

/**
 * PUT /api/comms/threads/{id}/suggestion: a suggestion brought by the screen (navigation state
 * initialAiSuggestionText + communicationContext), so Ignore and Use work the same way.
 */
export const ZPutSuggestionRequest = z.strictObject({
  text: ZMessageText,
  context: z.string().max(4000).nullable().optional(),
});
export type TPutSuggestionRequest = z.input<typeof ZPutSuggestionRequest>;

export const ZThreadListQuery = z.object({
  skip: ZSkip,
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(COMMS_THREADS_PAGE_SIZE),
});
export type TThreadListQuery = z.input<typeof ZThreadListQuery>;

/** GET /api/comms/threads/{id}/messages: the latest page, or the page before `before` (a seq). */
export const ZMessageListQuery = z.object({
  before: ZSeqCursor(1).optional(),
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(COMMS_MESSAGES_PAGE_SIZE),
});
export type TMessageListQuery = z.input<typeof ZMessageListQuery>;

/** Thread-stream event names beyond the default `message`. */
export const COMMS_SUGGESTION_EVENT = 'suggestion';
