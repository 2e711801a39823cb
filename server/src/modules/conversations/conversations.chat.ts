import { CHAT_FAILURE_TEXT, type TChatResponse, type TMessageStatus, type ZChatRequest } from '@cc/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import { nowIso } from '../../db/index.ts';
import type { AuthUser } from '../../platform/auth/authenticate.ts';
import type { AppContext } from '../../platform/context.ts';
import { conflict } from '../../platform/errors.ts';
import { startAssistantTurn, type TurnHistoryItem } from './conversations.assistant.ts';
import * as repo from './conversations.repository.ts';
import {
  appendConversationMessage,
  conversationChannel,
  ownConversation,
  stopChannel,
} from './conversations.service.ts';

/** A streaming reply is written to the database at most this often (≤ 10 writes a second per stream). */
export const REPLY_FLUSH_MS = 100;
/** Longest text carried by one delta note (PostgreSQL NOTIFY payloads must stay small). */
const MAX_DELTA_CHARS = 2000;

/** Replies being written on this instance, by conversation: one at a time per conversation. */
const activeReplies = new Map<string, AbortController>();

/**
 * Keeps a streaming reply: every chunk goes out at once as an ephemeral delta on the bus (in order),
 * while the text reaches the database in batches, so a reload or a reconnecting stream sees the
 * partial reply without a write per token.
 */
class ReplyWriter {
  text = '';
  private lastFlush = 0;
  private timer: NodeJS.Timeout | null = null;
  private dirty = false;
  private writes: Promise<void> = Promise.resolve();
  private notes: Promise<void> = Promise.resolve();

  constructor(
    private readonly ctx: AppContext,
    private readonly conversationId: string,
    private readonly messageId: string,
  ) {}

  append(chunk: string): void {
    for (let i = 0; i < chunk.length; i += MAX_DELTA_CHARS) {
      const part = chunk.slice(i, i + MAX_DELTA_CHARS);
      const offset = this.text.length;
      this.text += part;
      const note = { kind: 'delta', message_id: this.messageId, offset, text: part };
      // Chained so notes keep their order even when each publish is a database round trip.
      this.notes = this.notes
        .then(() => this.ctx.bus.publish(conversationChannel(this.conversationId), note))
        .catch(() => {});
    }
    this.dirty = true;
    if (!this.timer) {
      const wait = Math.max(0, this.lastFlush + REPLY_FLUSH_MS - Date.now());
      this.timer = setTimeout(() => {
        this.timer = null;
        this.writes = this.writes.then(() => this.flush());
      }, wait);
    }
  }

  private async flush(): Promise<void> {
    if (!this.dirty) return;
    this.dirty = false;
    this.lastFlush = Date.now();
    try {
      await repo.updateMessage(this.ctx.db, this.messageId, { text: this.text, updated_at: nowIso() });
    } catch {
      // The final write carries the whole text; a failed intermediate write loses nothing.
    }
  }

  /** The final write (text, status, usage), then the note that makes every stream re-send it. */
  async finish(set: Parameters<typeof repo.updateMessage>[2]): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.writes;
    await this.notes;
    await repo.updateMessage(this.ctx.db, this.messageId, { ...set, updated_at: nowIso() });
    await this.ctx.bus.publish(conversationChannel(this.conversationId), { kind: 'message' });
  }
}

/**
 * POST /api/conversations/{id}/chat: stores the user's message, then streams the assistant's reply on
 * the conversation's event stream and answers with the finished reply. Aborting `signal` (the client
 * went away) or POST .../chat/stop (any instance, through the bus) stops the model call; the partial
 * reply is kept with status "stopped". A failed call keeps any partial text, or stores the failure text.
 */
export async function chat(
  ctx: AppContext,
  caller: AuthUser,
  conversationId: string,
  body: z.output<typeof ZChatRequest>,
  signal: AbortSignal,
  log?: FastifyBaseLogger,
): Promise<TChatResponse> {
  await ownConversation(ctx, caller, conversationId);
  if (activeReplies.has(conversationId)) {
    throw conflict(
      'A reply is already being written in this conversation. Stop it or wait for it to finish.',
    );
  }
  const controller = new AbortController();
  activeReplies.set(conversationId, controller);
  const abort = () => controller.abort();
  signal.addEventListener('abort', abort);
  const unsubscribe = ctx.bus.subscribe(stopChannel(conversationId), abort);
  try {
    // The context is what came before this message; the turn starts (and an unknown model is refused
    // with 422) before anything is stored.
    const context = await repo.contextMessages(ctx.db, conversationId, body.context_messages);
    const history: TurnHistoryItem[] = context
      .filter((m) => m.status !== 'failed' && m.text.trim() !== '' && m.sender !== 'system')
      .map((m) => ({ role: m.sender === 'user' ? 'user' : 'assistant', content: m.text }));
    if (signal.aborted) controller.abort();
    const turn = await startAssistantTurn(ctx, {
      user: caller,
      conversationId,
      messageText: body.message_text,
      history,
      useMemory: body.use_memory,
      useInternet: body.use_internet,
      useInternalSearch: body.use_internal_search,
      model: body.model,
      abortSignal: controller.signal,
    });
    const userMessage = await appendConversationMessage(ctx, {
      conversationId,
      sender: 'user',
      text: body.message_text,
    });
    const reply = await appendConversationMessage(ctx, {
      conversationId,
      sender: 'assistant',
      text: '',
      status: 'streaming',
      model: turn.model,
    });

    const writer = new ReplyWriter(ctx, conversationId, reply.id);
    let status: TMessageStatus = 'complete';
    let error: string | null = null;
    const model = turn.model;
    let usage: { inputTokens: number | null; outputTokens: number | null } | null = null;
    try {
      for await (const chunk of turn.textStream) {
        if (controller.signal.aborted) break;
        if (chunk) writer.append(chunk);
      }
      if (controller.signal.aborted) status = 'stopped';
      else usage = await turn.usage();
    } catch (err) {
      if (controller.signal.aborted) {
        status = 'stopped';
      } else {
        status = 'failed';
        error = err instanceof Error ? err.message.slice(0, 1000) : String(err).slice(0, 1000);
        log?.warn({ err, conversationId }, 'chat reply failed');
      }
    }
    const text = status === 'failed' && writer.text.trim() === '' ? CHAT_FAILURE_TEXT : writer.text;
    await writer.finish({
      text,
      status,
      model,
      error,
      input_tokens: usage?.inputTokens ?? null,
      output_tokens: usage?.outputTokens ?? null,
    });
    return {
      id: reply.id,
      conversation_id: conversationId,
      content: text,
      timestamp: reply.timestamp,
      status,
      user_message_id: userMessage.id,
      model,
      usage: usage ? { input_tokens: usage.inputTokens, output_tokens: usage.outputTokens } : null,
    };
  } finally {
    // Whatever happened, no model call outlives the request.
    controller.abort();
    activeReplies.delete(conversationId);
    signal.removeEventListener('abort', abort);
    unsubscribe();
  }
}

/** POST /api/conversations/{id}/chat/stop: stops the reply being written (on whichever instance). */
export async function stopChat(ctx: AppContext, caller: AuthUser, conversationId: string) {
  await ownConversation(ctx, caller, conversationId);
  const local = activeReplies.get(conversationId);
  local?.abort();
  await ctx.bus.publish(stopChannel(conversationId), { kind: 'stop' });
  const streaming = await repo.hasStreamingReply(ctx.db, conversationId);
  return { stopped: Boolean(local) || streaming };
}
