import { randomUUID } from 'node:crypto';
import { COMMS_DEMO_REPLY_MAX_MS, COMMS_DEMO_REPLY_MIN_MS } from '@cc/contract';
import { nowIso } from '../../db/index.ts';
import type { AppContext } from '../../platform/context.ts';
import { background } from './comms.background.ts';
import * as repo from './comms.repository.ts';

/**
 * Demo colleagues: accounts flagged in comms_scripted_users whose replies are scripted on the server,
 * so a newcomer sees the Comms Center alive. Only a message sent by a real person to a thread with a
 * scripted colleague triggers that colleague's reply; real people's messages are never scripted.
 */

export const demoReplyDelay = (random: () => number = Math.random) =>
  Math.round(COMMS_DEMO_REPLY_MIN_MS + random() * (COMMS_DEMO_REPLY_MAX_MS - COMMS_DEMO_REPLY_MIN_MS));

/** Marks an account as a scripted demo colleague with its reply lines (used in turn). */
export async function registerScriptedColleague(ctx: AppContext, userId: string, script: string[]) {
  await repo.insertScriptedUser(ctx.db, userId, script, nowIso());
}

export const isScriptedColleague = (ctx: AppContext, userId: string) => repo.isScripted(ctx.db, userId);

/**
 * After a real person's message: each scripted colleague in the thread answers with its next line
 * after 800 to 2000 ms. `reply` stores and publishes the message like any other.
 */
export async function scheduleScriptedReplies(
  ctx: AppContext,
  threadId: string,
  senderId: string,
  participantIds: readonly string[],
  reply: (botId: string, text: string) => Promise<void>,
): Promise<void> {
  const candidates = participantIds.filter((id) => id !== senderId);
  const bots = await repo.scriptedUsers(ctx.db, candidates);
  if (!bots.length || (await repo.isScripted(ctx.db, senderId))) return;
  for (const bot of bots) {
    background(ctx).later('comms demo reply', demoReplyDelay(), async () => {
      const lines = parseScript(bot.script);
      if (!lines.length) return;
      const sent = await repo.countSentBy(ctx.db, threadId, bot.user_id);
      // The thread may have been erased meanwhile; then there is nobody to answer.
      const still = await repo.findThreadFor(ctx.db, threadId, bot.user_id);
      if (!still) return;
      await reply(bot.user_id, lines[sent % lines.length]);
    });
  }
}

function parseScript(script: string): string[] {
  try {
    const v = JSON.parse(script);
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string' && x.trim() !== '') : [];
  } catch {
    return [];
  }
}

/**
 * Demo seed: a conversation with history written in the past (no streams, suggestions or scripted
 * replies run), optionally with a ready suggested reply for one participant.
 */
export async function seedConversation(
  ctx: AppContext,
  o: {
    participantIds: string[];
    messages: { sender: { id: string; name: string }; text: string; at: string }[];
    suggestion?: { userId: string; text: string };
  },
): Promise<string> {
  const members = [...new Set(o.participantIds)].sort();
  const id = randomUUID();
  const created = o.messages[0]?.at ?? nowIso();
  await repo.insertThread(
    ctx.db,
    {
      id,
      participant_key: members.join(','),
      created_by: members[0],
      last_message_text: null,
      last_seq: 0,
      created_at: created,
      updated_at: created,
    },
    members.map((userId) => ({
      thread_id: id,
      user_id: userId,
      name: null,
      visible: 1,
      cleared_seq: 0,
      updated_at: created,
    })),
  );
  let last = 0;
  for (const m of o.messages) {
    last = await repo.insertMessage(ctx.db, {
      id: randomUUID(),
      thread_id: id,
      kind: 'user',
      sender_id: m.sender.id,
      sender_name: m.sender.name,
      visible_to: null,
      text: m.text,
      ai_suggested: 0,
      created_at: m.at,
    });
  }
  if (o.suggestion) {
    await repo.putSuggestion(ctx.db, {
      id: randomUUID(),
      thread_id: id,
      user_id: o.suggestion.userId,
      status: 'ready',
      text: o.suggestion.text,
      context: null,
      for_seq: last,
      created_at: nowIso(),
    });
  }
  return id;
}
