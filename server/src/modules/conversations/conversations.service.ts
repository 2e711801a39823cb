import { randomUUID } from 'node:crypto';
import type {
  TConversation,
  TConversationMessage,
  TMessageSender,
  TMessagesPage,
  ZConversationListQuery,
  ZCreateConversationRequest,
  ZMessagesQuery,
  ZUpdateConversationRequest,
} from '@cc/contract';
import type { z } from 'zod';
import { nowIso, withTx } from '../../db/index.ts';
import type { AuthUser } from '../../platform/auth/authenticate.ts';
import type { AppContext } from '../../platform/context.ts';
import { ownedBy } from '../../platform/access.ts';
import type { SseMessage } from '../../platform/realtime/sse.ts';
import { presentConversation, presentMessage } from './conversations.presenter.ts';
import { ANY_VERSION, nextVersion, type Precondition } from '../../platform/concurrency.ts';
import { deleteWithConversationFiles } from '../files/files.service.ts';
import * as repo from './conversations.repository.ts';

/** Bus channel of a conversation's stream: notes `{kind:'message'}` (reload) and `{kind:'delta', …}`. */
export const conversationChannel = (id: string) => `conversation:${id}`;

/** Conversations are private: anyone but the owner gets 404, as if it did not exist. */
export async function ownConversation(ctx: AppContext, caller: AuthUser, id: string) {
  return ownedBy(await repo.findConversation(ctx.db, id), caller.id, 'Conversation not found');
}

export async function listConversations(
  ctx: AppContext,
  caller: AuthUser,
  q: z.output<typeof ZConversationListQuery>,
): Promise<TConversation[]> {
  const rows = await repo.listConversations(ctx.db, caller.id, q.skip, q.limit);
  return rows.map(presentConversation);
}

export async function getConversation(ctx: AppContext, caller: AuthUser, id: string): Promise<TConversation> {
  return presentConversation(await ownConversation(ctx, caller, id));
}

export async function createConversation(
  ctx: AppContext,
  caller: AuthUser,
  body: z.output<typeof ZCreateConversationRequest>,
): Promise<TConversation> {
  const now = nowIso();
  const row = { id: randomUUID(), user_id: caller.id, name: body.name, created_at: now, updated_at: now };
  await repo.insertConversation(ctx.db, row);
  return presentConversation(row);
}

export async function renameConversation(
  ctx: AppContext,
  caller: AuthUser,
  id: string,
  body: z.output<typeof ZUpdateConversationRequest>,
  pre: Precondition = ANY_VERSION,
): Promise<TConversation> {
  const row = await ownConversation(ctx, caller, id);
  pre.check(row.updated_at);
  const updated = { ...row, name: body.name, updated_at: nextVersion(row.updated_at) };
  await repo.updateConversation(ctx.db, id, { name: updated.name, updated_at: updated.updated_at });
  return presentConversation(updated);
}

export async function deleteConversation(ctx: AppContext, caller: AuthUser, id: string): Promise<void> {
  await ownConversation(ctx, caller, id);
  // The files attached in it go with it: rows in the same transaction, bytes once it committed.
  await deleteWithConversationFiles(ctx, id, (trx) => repo.deleteConversation(trx, id));
  // A reply still being written stops: its rows are gone.
  await ctx.bus.publish(stopChannel(id), { kind: 'stop' });
}

/** The latest page of the log (or the page before `before`), oldest first; never the whole log. */
export async function listMessages(
  ctx: AppContext,
  caller: AuthUser,
  id: string,
  q: z.output<typeof ZMessagesQuery>,
): Promise<TMessagesPage> {
  await ownConversation(ctx, caller, id);
  // The cursor is read before the page, so a stream opened from it re-sends anything written between.
  const cursor = await repo.maxSeq(ctx.db, id);
  const page = await repo.messagePage(ctx.db, id, q.before, q.limit);
  return { items: page.rows.map(presentMessage), has_more: page.hasMore, cursor: String(cursor) };
}

// ---------------------------------------------------------------------------------------------
// Writing messages (chat, and the run engine's crew/flow messages)

export const stopChannel = (id: string) => `conversation-stop:${id}`;

export interface AppendMessageInput {
  conversationId: string;
  sender: TMessageSender;
  text: string;
  crewRunId?: string | null;
  flowRunId?: string | null;
  /** Default complete; the chat writes its reply as streaming first. */
  status?: TConversationMessage['status'];
  model?: string | null;
}

/**
 * Writes a message into a conversation and publishes it on the conversation's stream (write first,
 * then publish). For the run engine: crew and flow progress, results and failed starts. The caller
 * checks the conversation belongs to the user it acts for. The conversation moves to the top of the list.
 */
export async function appendConversationMessage(
  ctx: AppContext,
  input: AppendMessageInput,
): Promise<TConversationMessage> {
  const now = nowIso();
  const row = {
    id: randomUUID(),
    conversation_id: input.conversationId,
    sender: input.sender,
    text: input.text,
    status: input.status ?? 'complete',
    model: input.model ?? null,
    input_tokens: null,
    output_tokens: null,
    error: null,
    crew_run_id: input.crewRunId ?? null,
    flow_run_id: input.flowRunId ?? null,
    created_at: now,
    updated_at: now,
  };
  const { position, seq } = await repo.insertMessage(ctx.db, row);
  await repo.updateConversation(ctx.db, input.conversationId, { updated_at: now });
  await ctx.bus.publish(conversationChannel(input.conversationId), { kind: 'message', seq });
  return presentMessage({ ...row, position });
}

/**
 * The two rows of a chat turn (the user's message and the assistant's reply, streaming and empty) in
 * one transaction: one durable write before the first token can be published.
 */
export async function appendTurnMessages(
  ctx: AppContext,
  conversationId: string,
  userText: string,
  model: string | null,
  ids: { user: string; reply: string } = { user: randomUUID(), reply: randomUUID() },
): Promise<{ user: TConversationMessage; reply: TConversationMessage }> {
  const now = nowIso();
  const base = {
    conversation_id: conversationId,
    model: null,
    input_tokens: null,
    output_tokens: null,
    error: null,
    crew_run_id: null,
    flow_run_id: null,
    created_at: now,
    updated_at: now,
  };
  const userRow = { ...base, id: ids.user, sender: 'user', text: userText, status: 'complete' };
  const replyRow = { ...base, id: ids.reply, sender: 'assistant', text: '', status: 'streaming', model };
  const [u, r] = await withTx(ctx.db, async (trx) => {
    const a = await repo.insertMessage(trx, userRow);
    const b = await repo.insertMessage(trx, replyRow);
    await repo.updateConversation(trx, conversationId, { updated_at: now });
    return [a, b];
  });
  await ctx.bus.publish(conversationChannel(conversationId), { kind: 'message', seq: r.seq });
  return { user: presentMessage({ ...userRow, ...u }), reply: presentMessage({ ...replyRow, ...r }) };
}

// ---------------------------------------------------------------------------------------------
// The event stream

/** What the stream of a conversation replays and follows (the route checks ownership first). */
export function conversationStreamOptions(ctx: AppContext, id: string) {
  return {
    channel: conversationChannel(id),
    // Without Last-Event-ID the stream starts live: history comes from the paged messages endpoint,
    // whose `cursor` the client passes as last_event_id to miss nothing in between.
    initialCursor: async () => String(await repo.maxSeq(ctx.db, id)),
    loadAfter: async (cursor: string | null, limit: number): Promise<SseMessage[]> => {
      const after = Number.parseInt(cursor ?? '0', 10);
      const rows = await repo.messagesAfter(ctx.db, id, Number.isFinite(after) ? after : 0, limit);
      return rows.map((r) => ({ id: String(r.seq), event: 'message', data: presentMessage(r) }));
    },
    // A `message` note with a seq comes once that write is on disk (sse.ts: durableCursor).
    durableCursor: (p: Record<string, unknown>) =>
      p.kind === 'message' && p.seq != null ? String(p.seq) : null,
    onEphemeral: (payload: Record<string, unknown>): SseMessage | null =>
      payload.kind === 'delta' ? { event: 'delta', data: payload } : null,
  };
}
