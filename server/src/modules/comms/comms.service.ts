import { randomUUID } from 'node:crypto';
import type {
  TCommsMessage,
  TCommsThread,
  ZCreateThreadRequest,
  ZMessageListQuery,
  ZRenameThreadRequest,
  ZThreadListQuery,
} from '@cc/contract';
import type { z } from 'zod';
import { nowIso, withTx } from '../../db/index.ts';
import type { AuthUser } from '../../platform/auth/authenticate.ts';
import type { AppContext } from '../../platform/context.ts';
import { badRequest, notFound } from '../../platform/errors.ts';
import { organizationIdsOf } from '../organizations/memberships.service.ts';
import { displayName, presentMessage, presentThread } from './comms.presenter.ts';
import { resolveDraftItem } from './comms.inbox.ts';
import * as repo from './comms.repository.ts';

const THREAD_NOT_FOUND = 'Conversation not found';

/** The bus channel of a thread: notes are `{seq}` (new rows) or `{kind:'suggestion', user_id}`. */
export const threadChannel = (threadId: string) => `comms:${threadId}`;

/** The thread as the caller sees it; 404 for anyone who is not a participant (never leak existence). */
export async function loadThread(ctx: AppContext, caller: { id: string }, threadId: string) {
  const row = await repo.findThreadFor(ctx.db, threadId, caller.id);
  if (!row) throw notFound(THREAD_NOT_FOUND);
  return row;
}

async function presentRows(
  ctx: AppContext,
  callerId: string,
  rows: repo.ThreadRow[],
): Promise<TCommsThread[]> {
  const ids = rows.map((r) => r.id);
  const [participants, suggestions] = await Promise.all([
    repo.participantsOf(ctx.db, ids),
    repo.suggestionIdsFor(ctx.db, callerId, ids),
  ]);
  return rows.map((r) =>
    presentThread(
      r,
      participants.filter((p) => p.thread_id === r.id),
      callerId,
      suggestions.get(r.id) ?? null,
    ),
  );
}

export async function getThread(ctx: AppContext, caller: AuthUser, threadId: string): Promise<TCommsThread> {
  const row = await loadThread(ctx, caller, threadId);
  return (await presentRows(ctx, caller.id, [row]))[0];
}

export async function listThreads(
  ctx: AppContext,
  caller: AuthUser,
  q: z.output<typeof ZThreadListQuery>,
): Promise<TCommsThread[]> {
  const rows = await repo.listThreads(ctx.db, { userId: caller.id, skip: q.skip, limit: q.limit });
  return presentRows(ctx, caller.id, rows);
}

/**
 * Opens the conversation with these people: the existing thread for exactly this set of participants
 * when there is one (shown again if the caller had deleted it), else a new one. Everyone named must be
 * someone the caller may message: an approved member of one of the caller's organizations.
 */
export async function createThread(
  ctx: AppContext,
  caller: AuthUser,
  body: z.output<typeof ZCreateThreadRequest>,
): Promise<{ thread: TCommsThread; created: boolean }> {
  const others = [...new Set(body.participant_ids)].filter((id) => id !== caller.id);
  if (!others.length) throw badRequest('Choose at least one person to message.');
  const allowed = await repo.messageableUsers(ctx.db, others, await organizationIdsOf(ctx, caller.id));
  if (allowed.length !== others.length) {
    throw badRequest('You can only message approved members of your organizations.');
  }
  const members = [caller.id, ...others].sort();
  const key = members.join(',');
  const existing = await repo.findThreadByKey(ctx.db, key);
  if (existing) {
    await repo.updateParticipant(ctx.db, existing.id, caller.id, { visible: 1 });
    return { thread: await getThread(ctx, caller, existing.id), created: false };
  }
  const now = nowIso();
  const id = randomUUID();
  try {
    await withTx(ctx.db, (trx) =>
      repo.insertThread(
        trx,
        {
          id,
          participant_key: key,
          created_by: caller.id,
          last_message_text: null,
          last_seq: 0,
          created_at: now,
          updated_at: now,
        },
        members.map((userId) => ({
          thread_id: id,
          user_id: userId,
          name: null,
          visible: 1,
          cleared_seq: 0,
          updated_at: now,
        })),
      ),
    );
  } catch (err) {
    // Two people opened the same conversation at once: the unique key kept one; use it.
    const raced = await repo.findThreadByKey(ctx.db, key);
    if (!raced) throw err;
    return { thread: await getThread(ctx, caller, raced.id), created: false };
  }
  return { thread: await getThread(ctx, caller, id), created: true };
}

/** Edit Name: the caller's own label for the thread; blank or null restores the default. */
export async function renameThread(
  ctx: AppContext,
  caller: AuthUser,
  threadId: string,
  body: z.output<typeof ZRenameThreadRequest>,
): Promise<TCommsThread> {
  await loadThread(ctx, caller, threadId);
  const name = body.name?.trim() || null;
  await repo.updateParticipant(ctx.db, threadId, caller.id, { name });
  return getThread(ctx, caller, threadId);
}

/**
 * Delete Chat removes the conversation and its history for the caller only (the other people keep
 * theirs); a later message shows it again from that message on. When nobody keeps it, it is erased.
 */
export async function deleteThread(ctx: AppContext, caller: AuthUser, threadId: string): Promise<void> {
  const row = await loadThread(ctx, caller, threadId);
  await withTx(ctx.db, async (trx) => {
    const cleared = await repo.maxSeq(trx, threadId);
    await repo.updateParticipant(trx, threadId, caller.id, {
      visible: 0,
      cleared_seq: Math.max(cleared, row.cleared_seq),
    });
    await repo.deleteSuggestion(trx, threadId, caller.id);
    if ((await repo.countVisibleParticipants(trx, threadId)) === 0) await repo.deleteThread(trx, threadId);
  });
  // The caller's draft went with the chat: it leaves their approvals inbox.
  await resolveDraftItem(ctx, threadId, caller.id, { status: 'resolved', resolvedBy: caller.id });
}

export async function listMessages(
  ctx: AppContext,
  caller: AuthUser,
  threadId: string,
  q: z.output<typeof ZMessageListQuery>,
): Promise<TCommsMessage[]> {
  const row = await loadThread(ctx, caller, threadId);
  const rows = await repo.latestMessages(ctx.db, {
    threadId,
    viewerId: caller.id,
    after: row.cleared_seq,
    before: q.before,
    limit: q.limit,
  });
  return rows.reverse().map(presentMessage);
}

export interface StoreMessage {
  threadId: string;
  sender: { id: string; name: string } | null;
  text: string;
  kind?: 'user' | 'system';
  /** A note for one participant only. */
  visibleTo?: string | null;
  aiSuggested?: boolean;
}

/** Writes the message, then tells the thread's streams (rule: the row first, then the note). */
export async function storeMessage(ctx: AppContext, m: StoreMessage): Promise<TCommsMessage> {
  const row: repo.MessageRow = {
    seq: 0,
    id: randomUUID(),
    thread_id: m.threadId,
    kind: m.kind ?? 'user',
    sender_id: m.sender?.id ?? null,
    sender_name: m.sender?.name ?? 'System',
    visible_to: m.visibleTo ?? null,
    text: m.text,
    ai_suggested: m.aiSuggested ? 1 : 0,
    created_at: nowIso(),
  };
  const { seq: _omit, ...values } = row;
  row.seq = await withTx(ctx.db, (trx) => repo.insertMessage(trx, values));
  await ctx.bus.publish(threadChannel(m.threadId), { seq: row.seq });
  return presentMessage(row);
}

export async function senderOf(ctx: AppContext, userId: string): Promise<{ id: string; name: string }> {
  const u = await repo.userName(ctx.db, userId);
  return { id: userId, name: u ? displayName(u) : 'Unknown user' };
}

/** The thread's name as this participant sees it; null when they are not one (or it is gone). */
export async function threadNameFor(
  ctx: AppContext,
  userId: string,
  threadId: string,
): Promise<string | null> {
  const row = await repo.findThreadFor(ctx.db, threadId, userId);
  return row ? (await presentRows(ctx, userId, [row]))[0].name : null;
}

/** Threads the person takes part in whose last message is someone else's and older than `before`. */
export function threadsAwaitingReply(ctx: AppContext, userId: string, before: string, scan: number) {
  return repo.threadsAwaitingReply(ctx.db, { userId, before, scan });
}

/** Messages exchanged in [since, until) in the person's threads (newest first, at most `limit`). */
export function messagesOfUserBetween(
  ctx: AppContext,
  userId: string,
  o: { since: string; until: string; scan: number; limit: number },
) {
  return repo.messagesOfUserBetween(ctx.db, { userId, ...o });
}
