import { randomUUID } from 'node:crypto';
import type { TMemory, TMineMemoryResponse } from '@cc/contract';
import { nowIso, withTx } from '../../db/index.ts';
import { recordActivity } from '../activity/activity.ledger.ts';
import { extractMemories } from '../../ai/memory/extract.ts';
import type { AuthUser } from '../../platform/auth/authenticate.ts';
import type { AppContext } from '../../platform/context.ts';
import { notFound } from '../../platform/errors.ts';
import { presentMemory } from './memory.presenter.ts';
import * as repo from './memory.repository.ts';

/** How many of the latest memories relevance ranking looks at (bounded read). */
const RELEVANCE_WINDOW = 200;

/** The de-duplication key: lower-cased words, punctuation and spacing ignored. */
export function normalizeMemory(text: string): string {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .join(' ');
}

/** Extracts durable facts from `content` and stores the new ones for the caller (never for anyone else). */
export async function mineMemories(
  ctx: AppContext,
  caller: AuthUser,
  content: string,
  conversationId: string | null,
): Promise<TMineMemoryResponse> {
  const facts = await extractMemories(ctx, caller, content);
  const byKey = new Map<string, string>();
  for (const f of facts) {
    const key = normalizeMemory(f);
    if (key && !byKey.has(key)) byKey.set(key, f);
  }
  const known = await repo.existingNormalized(ctx.db, caller.id, [...byKey.keys()]);
  const now = nowIso();
  const rows = [...byKey]
    .filter(([key]) => !known.has(key))
    .map(([normalized, text]) => ({
      id: randomUUID(),
      user_id: caller.id,
      content: text,
      normalized,
      conversation_id: conversationId,
      created_at: now,
    }));
  await withTx(ctx.db, async (trx) => {
    await repo.insertMemories(trx, rows);
    // Each fact the AI stored is one entry the user can take back (undo forgets it).
    for (const r of rows) {
      await recordActivity(trx, {
        actorUserId: caller.id,
        via: 'ai',
        action: 'memory.created',
        entityType: 'memory',
        entityId: r.id,
        summary: `Remembered: ${r.content}`,
        after: { content: r.content, conversation_id: r.conversation_id },
        undoable: true,
      });
    }
  });
  return { added: rows.map(presentMemory), skipped: facts.length - rows.length };
}

export async function listMemories(
  ctx: AppContext,
  caller: AuthUser,
  q: { skip: number; limit: number },
): Promise<TMemory[]> {
  return (await repo.listMemories(ctx.db, caller.id, q.skip, q.limit)).map(presentMemory);
}

export async function deleteMemory(ctx: AppContext, caller: AuthUser, id: string): Promise<void> {
  if (!(await repo.deleteMemory(ctx.db, caller.id, id))) throw notFound('Memory not found');
}

/**
 * Up to k of the user's memories for a prompt: those sharing words with `text` first (most shared
 * first), then the most recent, so standing preferences still reach the model.
 */
export async function relevantMemories(
  ctx: AppContext,
  userId: string,
  text: string,
  k = 5,
): Promise<string[]> {
  const rows = await repo.listMemories(ctx.db, userId, 0, RELEVANCE_WINDOW);
  const words = new Set(
    normalizeMemory(text)
      .split(' ')
      .filter((w) => w.length > 2),
  );
  const scored = rows.map((r, i) => ({
    content: r.content,
    i,
    score: r.normalized.split(' ').filter((w) => words.has(w)).length,
  }));
  scored.sort((a, b) => b.score - a.score || a.i - b.i);
  return scored.slice(0, k).map((s) => s.content);
}
