import { ZRecordCitation } from './citations.ts';
import { z } from 'zod';
import { ZSeqCursor, ZSkip } from './common.ts';

/** Default name of a conversation created without one (spec section 9). */
export const DEFAULT_CONVERSATION_NAME = 'New Conversation';
export const CONVERSATION_NAME_REQUIRED = 'Name is required.';
export const CONVERSATIONS_PAGE_SIZE = 100;
/** The message log loads the latest 50 first, then older pages of 50. */
export const MESSAGES_PAGE_SIZE = 50;
export const MESSAGES_MAX_PAGE_SIZE = 200;
export const CHAT_MESSAGE_MAX_LENGTH = 20_000;

/** Context messages: 0 to 10, default 3 (spec section 9). */
export const CONTEXT_MESSAGES_MIN = 0;
export const CONTEXT_MESSAGES_MAX = 10;
export const CONTEXT_MESSAGES_DEFAULT = 3;

/** The text shown (and stored) when the assistant could not produce a reply (spec section 8). */
export const CHAT_FAILURE_TEXT = "Sorry, I couldn't generate a response.";

/**
 * Who wrote a message. `assistant` is the spec's "ai"; `crew` and `system` are written by the run
 * engine (crew/flow progress, failed starts).
 */
export const MESSAGE_SENDERS = ['user', 'assistant', 'system', 'crew'] as const;
export type TMessageSender = (typeof MESSAGE_SENDERS)[number];

/**
 * streaming: the assistant is still writing (text is the partial reply so far);
 * complete: done; stopped: the user stopped it (partial text kept); failed: the model call failed.
 */
export const MESSAGE_STATUSES = ['streaming', 'complete', 'stopped', 'failed'] as const;
export type TMessageStatus = (typeof MESSAGE_STATUSES)[number];

export const ZConversation = z.object({
  id: z.string(),
  name: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type TConversation = z.infer<typeof ZConversation>;

const ZConversationName = z
  .string({ message: CONVERSATION_NAME_REQUIRED })
  .trim()
  .min(1, CONVERSATION_NAME_REQUIRED)
  .max(200, 'Name must be at most 200 characters.');

/** POST /api/conversations/: name defaults to "New Conversation". */
export const ZCreateConversationRequest = z.strictObject({
  name: ZConversationName.default(DEFAULT_CONVERSATION_NAME),
});
export type TCreateConversationRequest = z.input<typeof ZCreateConversationRequest>;

/** PUT /api/conversations/{id}: the new name, non-blank. */
export const ZUpdateConversationRequest = z.strictObject({ name: ZConversationName });
export type TUpdateConversationRequest = z.input<typeof ZUpdateConversationRequest>;

/** GET /api/conversations/: most recently updated first. */
export const ZConversationListQuery = z.object({
  skip: ZSkip,
  limit: z.coerce.number().int().min(1).max(200).default(CONVERSATIONS_PAGE_SIZE),
});
export type TConversationListQuery = z.input<typeof ZConversationListQuery>;

export const ZTokenUsage = z.object({
  input_tokens: z.number().int().nullable(),
  output_tokens: z.number().int().nullable(),
});

/** A message of a conversation (also the data of the `message` events of the conversation stream). */
export const ZConversationMessage = z.object({
  id: z.string(),
  conversation_id: z.string(),
  sender: z.enum(MESSAGE_SENDERS),
  /** Markdown; render sanitized. For a streaming reply, the text so far. */
  text: z.string(),
  timestamp: z.string(),
  crew_run_id: z.string().nullable(),
  flow_run_id: z.string().nullable(),
  status: z.enum(MESSAGE_STATUSES),
  /** The model that wrote an assistant message. */
  model: z.string().nullable(),
  usage: ZTokenUsage.nullable(),
  /** Position in the conversation: messages are ordered by it, and `before` pages on it. */
  position: z.number().int(),
  /** The records an assistant answer used (issue 20 §3); empty: none (or not an answer). */
  citations: z.array(ZRecordCitation),
});
export type TConversationMessage = z.infer<typeof ZConversationMessage>;

/** GET /api/conversations/{id}/messages: the latest page first; `before` (a position) for older pages. */
export const ZMessagesQuery = z.object({
  before: ZSeqCursor(1).optional(),
  limit: z.coerce.number().int().min(1).max(MESSAGES_MAX_PAGE_SIZE).default(MESSAGES_PAGE_SIZE),
});
export type TMessagesQuery = z.input<typeof ZMessagesQuery>;

export const ZMessagesPage = z.object({
  /** Oldest first. */
  items: z.array(ZConversationMessage),
  /** True when older messages exist: ask again with before = items[0].position. */
  has_more: z.boolean(),
  /** Open the event stream with last_event_id = cursor to receive only what changed after this page. */
  cursor: z.string(),
});
export type TMessagesPage = z.infer<typeof ZMessagesPage>;

/** POST /api/conversations/{id}/chat. */
export const ZChatRequest = z.strictObject({
  message_text: z
    .string({ message: 'Message is required.' })
    .trim()
    .min(1, 'Message is required.')
    .max(CHAT_MESSAGE_MAX_LENGTH, `Message must be at most ${CHAT_MESSAGE_MAX_LENGTH} characters.`),
  use_memory: z.boolean().default(false),
  use_internet: z.boolean().default(false),
  use_internal_search: z.boolean().default(false),
  model: z.string().trim().min(1).max(200).optional(),
  context_messages: z
    .number({ message: 'Context messages must be a number from 0 to 10.' })
    .int('Context messages must be a number from 0 to 10.')
    .min(CONTEXT_MESSAGES_MIN, 'Context messages must be a number from 0 to 10.')
    .max(CONTEXT_MESSAGES_MAX, 'Context messages must be a number from 0 to 10.')
    .default(CONTEXT_MESSAGES_DEFAULT),
});
export type TChatRequest = z.input<typeof ZChatRequest>;

/**
 * The assistant's reply, answered when it is complete (it streams on the events stream meanwhile).
 * A failed model call is status "failed" with the failure text as content; a stopped one keeps the
 * partial content with status "stopped".
 */
export const ZChatResponse = z.object({
  id: z.string(),
  conversation_id: z.string(),
  content: z.string(),
  timestamp: z.string(),
  status: z.enum(MESSAGE_STATUSES),
  user_message_id: z.string(),
  model: z.string().nullable(),
  usage: ZTokenUsage.nullable(),
  /** The records the answer used; empty when it used none. */
  citations: z.array(ZRecordCitation),
});
export type TChatResponse = z.infer<typeof ZChatResponse>;

/** POST /api/conversations/{id}/chat/stop: whether a reply was being written and is now stopped. */
export const ZChatStopResponse = z.object({ stopped: z.boolean() });

/**
 * Events of GET /api/conversations/{id}/events:
 * - `message` (with an id, the resume cursor): a message was added or changed; data is the whole message;
 * - `delta` (no id, not replayed): text appended to a streaming reply; `offset` is the reply's length
 *   before it, so a client holding a longer text (from a reload) skips what it already has.
 */
export const ZConversationDeltaEvent = z.object({
  kind: z.literal('delta'),
  message_id: z.string(),
  offset: z.number().int(),
  text: z.string(),
});
export type TConversationDeltaEvent = z.infer<typeof ZConversationDeltaEvent>;
