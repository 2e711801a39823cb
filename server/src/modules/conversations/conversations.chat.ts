import { randomUUID } from 'node:crypto';
import {
  CHAT_FAILURE_TEXT,
  type TChatResponse,
  type TMessageStatus,
  type TRecordCitation,
  type ZChatRequest,
} from '@cc/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import { type AssistantTurnInput, streamAssistantTurn } from '../../ai/assistant.ts';
import { citationsOf } from '../../ai/citations.ts';
import { nowIso } from '../../db/index.ts';
import type { AuthUser } from '../../platform/auth/authenticate.ts';
import type { AppContext } from '../../platform/context.ts';
import { conflict } from '../../platform/errors.ts';
import { conversationFileTexts } from '../files/files.service.ts';
import * as repo from './conversations.repository.ts';
import {
  appendTurnMessages,
  conversationChannel,
  ownConversation,
  stopChannel,
} from './conversations.service.ts';

/**
 * Partial replies reach the database at most this often: ≤ 10 writes a second per stream as the
 * architecture allows, and fewer in practice, because every reply streaming on this instance is
 * written in the same transaction (SQLite writes are synchronous and each is flushed to disk before it
 * is acknowledged, so one transaction per tick instead of one per stream keeps the event loop free for
 * the tokens and costs one flush; with many replies at once it is written in slices of FLUSH_SLICE).
 */
export const REPLY_FLUSH_MS = 250;

/** A model slower than this to its first token gets the turn's rows written while it thinks. */
export const ROWS_AFTER_MS = 20;

/** Partial replies written per transaction when many stream at once. */
const FLUSH_SLICE = 8;

/** The partial texts waiting for the next batched write, per app instance. */
class PartialTextBatcher {
  private readonly pending = new Map<string, string>();
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();

  constructor(private readonly ctx: AppContext) {}

  set(messageId: string, text: string): void {
    this.pending.set(messageId, text);
    if (!this.timer) {
      this.timer = setTimeout(() => {
        this.timer = null;
        this.writing = this.writing.then(() => this.flush());
      }, REPLY_FLUSH_MS);
      this.timer.unref();
    }
  }

  /** Writes what is pending now and stops the timer (the app is closing). */
  async close(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.writing = this.writing.then(() => this.flush());
    await this.writing;
  }

  /** Drops a reply's pending text (its final write follows) once any write in progress is done. */
  async settle(messageId: string): Promise<void> {
    this.pending.delete(messageId);
    await this.writing;
  }

  private async flush(): Promise<void> {
    if (this.pending.size === 0) return;
    const batch = [...this.pending];
    this.pending.clear();
    const now = nowIso();
    // In slices with a turn of the event loop between them: one transaction for fifty replies held
    // every stream's tokens for 15–40 ms (a stall the 50-stream bench showed every 250 ms).
    for (let i = 0; i < batch.length; i += FLUSH_SLICE) {
      if (i > 0) await new Promise<void>((resolve) => setImmediate(resolve));
      try {
        await repo.updateTexts(this.ctx.db, new Map(batch.slice(i, i + FLUSH_SLICE)), now);
      } catch {
        // The final write carries the whole text; a failed intermediate write loses nothing.
      }
    }
  }
}

/** The replies an app instance is writing: one at a time per conversation. */
interface ChatState {
  batcher: PartialTextBatcher;
  active: Map<string, AbortController>;
  /** Chat requests and model calls still running; closing the app waits for them. */
  inFlight: Set<Promise<unknown>>;
}

const states = new WeakMap<AppContext, ChatState>();
function stateOf(ctx: AppContext): ChatState {
  let st = states.get(ctx);
  if (!st) {
    st = { batcher: new PartialTextBatcher(ctx), active: new Map(), inFlight: new Set() };
    states.set(ctx, st);
  }
  return st;
}
const batcherOf = (ctx: AppContext) => stateOf(ctx).batcher;

function track(st: ChatState, p: Promise<unknown>): void {
  const settled = p.then(
    () => {},
    () => {},
  );
  st.inFlight.add(settled);
  void settled.then(() => st.inFlight.delete(settled));
}

/** How long closing the app waits for stopped replies to write their final text. */
const CLOSE_WAIT_MS = 10_000;

/**
 * Closing the app (preClose, before the server and the database close): every reply still being
 * written is stopped and its final write (partial text, status stopped) awaited, as are the model
 * calls and the batched partial writes, so no query or NOTIFY runs against a closed pool.
 */
export async function stopAllReplies(ctx: AppContext): Promise<void> {
  const st = states.get(ctx);
  if (!st) return;
  for (const c of st.active.values()) c.abort();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((r) => {
    timer = setTimeout(r, CLOSE_WAIT_MS);
    timer.unref();
  });
  const drained = (async () => {
    while (st.inFlight.size > 0) await Promise.all([...st.inFlight]);
    await st.batcher.close();
  })();
  await Promise.race([drained, timeout]);
  clearTimeout(timer);
}
/** Longest text carried by one delta note (PostgreSQL NOTIFY payloads must stay small). */
const MAX_DELTA_CHARS = 2000;

/**
 * Keeps a streaming reply: every chunk goes out at once as an ephemeral delta on the bus (in order),
 * while the text reaches the database in batches, so a reload or a reconnecting stream sees the
 * partial reply without a write per token.
 */
class ReplyWriter {
  text = '';
  private notes: Promise<void> = Promise.resolve();
  private readonly batcher: PartialTextBatcher;

  constructor(
    private readonly ctx: AppContext,
    private readonly conversationId: string,
    private readonly messageId: string,
  ) {
    this.batcher = batcherOf(ctx);
  }

  append(chunk: string): void {
    for (let i = 0; i < chunk.length; i += MAX_DELTA_CHARS) {
      const part = chunk.slice(i, i + MAX_DELTA_CHARS);
      const offset = this.text.length;
      this.text += part;
      const note = { kind: 'delta', message_id: this.messageId, offset, text: part };
      // Published at once: the bus keeps the order of the calls, and a chain that waited for each
      // NOTIFY held every token of the reply behind the previous one's database round trip.
      this.notes = this.ctx.bus.publish(conversationChannel(this.conversationId), note).catch(() => {});
    }
    this.batcher.set(this.messageId, this.text);
  }

  /** The final write (text, status, usage), then the note that makes every stream re-send it. */
  async finish(set: Parameters<typeof repo.updateMessage>[2]): Promise<void> {
    await this.batcher.settle(this.messageId);
    await this.notes;
    const seq = await repo.updateMessage(this.ctx.db, this.messageId, { ...set, updated_at: nowIso() });
    await this.ctx.bus.publish(conversationChannel(this.conversationId), { kind: 'message', seq });
  }
}

export function chat(
  ctx: AppContext,
  caller: AuthUser,
  conversationId: string,
  body: z.output<typeof ZChatRequest>,
  signal: AbortSignal,
  log?: FastifyBaseLogger,
): Promise<TChatResponse> {
  const work = runChat(ctx, caller, conversationId, body, signal, log);
  track(stateOf(ctx), work);
  return work;
}

async function runChat(
  ctx: AppContext,
  caller: AuthUser,
  conversationId: string,
  body: z.output<typeof ZChatRequest>,
  signal: AbortSignal,
  log?: FastifyBaseLogger,
): Promise<TChatResponse> {
  // The context is what came before this message. Read beside the ownership check (reads only, one
  // round trip fewer before the model call on PostgreSQL); used only once the conversation is found
  // to be the caller's, and dropped with a refused turn.
  const reads = Promise.all([
    repo.contextMessages(ctx.db, conversationId, body.context_messages),
    conversationFileTexts(ctx, caller, conversationId),
  ]);
  reads.catch(() => {});
  await ownConversation(ctx, caller, conversationId);
  const st = stateOf(ctx);
  const activeReplies = st.active;
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
    // The turn starts (and an unknown model is refused with 422) before anything is stored.
    const [context, attachments] = await reads;
    const history: AssistantTurnInput['history'] = context
      .filter((m) => m.status !== 'failed' && m.text.trim() !== '' && m.sender !== 'system')
      .map((m) => ({ role: m.sender === 'user' ? 'user' : 'assistant', content: m.text }));
    if (signal.aborted) controller.abort();
    // The model call starts first and its request leaves before anything is written; a call that
    // cannot start (an unknown model is a 422) stores nothing.
    const turn = await streamAssistantTurn({
      ctx,
      user: caller,
      modelId: body.model ?? null,
      history,
      message: body.message_text,
      useMemory: body.use_memory,
      useInternalSearch: body.use_internal_search,
      useInternet: body.use_internet,
      conversationId,
      attachments,
      abortSignal: controller.signal,
    });
    // Tracked until the model call has wound down (also after an abort or a failure).
    track(
      st,
      turn.result.then(
        () => {},
        () => {},
      ),
    );
    // The turn's rows are written once the reply has begun: right after its first token has gone out,
    // or ROWS_AFTER_MS into the call when the model is slower. SQLite writes are synchronous, so a
    // write made while the first token is on its way would hold it back. Tokens go out before the rows
    // are on disk, as every token is shown before its batched write (ARCHITECTURE.md section 8); this
    // request is answered only once the rows and the final text are durable. A failed write stops
    // the turn.
    const ids = { user: randomUUID(), reply: randomUUID() };
    let writing: ReturnType<typeof appendTurnMessages> | undefined;
    let rowsDue = false;
    const writeRows = () => {
      clearTimeout(rowsTimer);
      if (!writing) {
        writing = appendTurnMessages(ctx, conversationId, body.message_text, body.model ?? null, ids);
        writing.catch(() => controller.abort());
      }
      return writing;
    };
    const rowsTimer = setTimeout(writeRows, ROWS_AFTER_MS);

    const writer = new ReplyWriter(ctx, conversationId, ids.reply);
    let status: TMessageStatus = 'complete';
    let error: string | null = null;
    const model = turn.model;
    let usage: { inputTokens: number | null; outputTokens: number | null } | null = null;
    let citations: TRecordCitation[] = [];
    try {
      for await (const chunk of turn.textStream) {
        if (controller.signal.aborted) break;
        if (!chunk) continue;
        writer.append(chunk);
        if (!rowsDue) {
          rowsDue = true;
          setImmediate(writeRows);
        }
      }
      if (controller.signal.aborted) status = 'stopped';
      else {
        const done = await turn.result;
        const { inputTokens, outputTokens } = done.usage;
        usage = { inputTokens: inputTokens ?? null, outputTokens: outputTokens ?? null };
        citations = citationsOf(done.sources);
      }
    } catch (err) {
      if (controller.signal.aborted) {
        status = 'stopped';
      } else {
        status = 'failed';
        error = err instanceof Error ? err.message.slice(0, 1000) : String(err).slice(0, 1000);
        log?.warn({ err, conversationId }, 'chat reply failed');
      }
    }
    const { user: userMessage, reply } = await writeRows();
    const text = status === 'failed' && writer.text.trim() === '' ? CHAT_FAILURE_TEXT : writer.text;
    await writer.finish({
      text,
      status,
      model,
      error,
      input_tokens: usage?.inputTokens ?? null,
      output_tokens: usage?.outputTokens ?? null,
      citations: JSON.stringify(citations),
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
      citations,
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
  const local = states.get(ctx)?.active.get(conversationId);
  local?.abort();
  await ctx.bus.publish(stopChannel(conversationId), { kind: 'stop' });
  const streaming = await repo.hasStreamingReply(ctx.db, conversationId);
  return { stopped: Boolean(local) || streaming };
}
