import { CHAT_FAILURE_TEXT } from '@cc/contract';
import type { FastifyInstance } from 'fastify';
import { nowIso } from '../../db/index.ts';
import type { AppContext } from '../../platform/context.ts';
import * as repo from './conversations.repository.ts';
import { conversationChannel } from './conversations.service.ts';

/** How often an instance looks for replies whose writer is gone. */
export const SWEEP_EVERY_MS = 60_000;
const BATCH = 200;
export const INTERRUPTED_ERROR = 'The server stopped while this reply was being written.';

/**
 * A writer touches its reply at least once per model call (the request timeout bounds a silent call)
 * and on every batch of tokens, so a reply unchanged for twice that is not being written by anyone.
 */
export const staleAfterMs = (ctx: AppContext) =>
  2 * (ctx.config.ai.requestTimeoutMs + ctx.config.ai.streamIdleTimeoutMs);

/**
 * Ends replies left `streaming` by a server that stopped mid-reply (a crash, a kill): with text they
 * become `stopped`, without any they fail with the chat's failure text, and open streams are told.
 * `all` takes every streaming reply: right for an embedded SQLite database at start, when no other
 * process can be writing one; otherwise only replies unchanged for {@link staleAfterMs}.
 */
export async function sweepInterruptedReplies(ctx: AppContext, opts: { all: boolean }): Promise<number> {
  const before = opts.all ? null : new Date(Date.now() - staleAfterMs(ctx)).toISOString();
  let ended = 0;
  for (;;) {
    const rows = await repo.streamingReplies(ctx.db, before, BATCH);
    const touched = new Set<string>();
    for (const r of rows) {
      const empty = r.text.trim() === '';
      const done = await repo.endStreamingReply(ctx.db, r.id, {
        status: empty ? 'failed' : 'stopped',
        text: empty ? CHAT_FAILURE_TEXT : r.text,
        error: empty ? INTERRUPTED_ERROR : null,
        updated_at: nowIso(),
      });
      if (done) {
        ended++;
        touched.add(r.conversation_id);
      }
    }
    for (const id of touched) await ctx.bus.publish(conversationChannel(id), { kind: 'message' });
    if (rows.length < BATCH) return ended;
  }
}

/** Sweeps once when the server is ready, then every {@link SWEEP_EVERY_MS} until it closes. */
export function registerReplySweeper(app: FastifyInstance, ctx: AppContext): void {
  let timer: NodeJS.Timeout | null = null;
  const sweep = (all: boolean) =>
    sweepInterruptedReplies(ctx, { all }).catch((err) => app.log.warn({ err }, 'reply sweep failed'));
  app.addHook('onReady', async () => {
    await sweep(ctx.dialect === 'sqlite');
    timer = setInterval(() => void sweep(false), SWEEP_EVERY_MS);
    timer.unref();
  });
  app.addHook('preClose', async () => {
    if (timer) clearInterval(timer);
  });
}
