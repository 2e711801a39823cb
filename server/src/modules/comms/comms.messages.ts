import { COMMS_SUGGESTION_DISMISSED_TEXT, type TCommsMessage } from '@cc/contract';
import type { AuthUser } from '../../platform/auth/authenticate.ts';
import type { AppContext } from '../../platform/context.ts';
import { recordActivity } from '../activity/activity.ledger.ts';
import { background } from './comms.background.ts';
import { scheduleScriptedReplies } from './comms.demo-replies.ts';
import { displayName } from './comms.presenter.ts';
import * as repo from './comms.repository.ts';
import { loadThread, senderOf, storeMessage } from './comms.service.ts';
import { requestSuggestion, takeSuggestion } from './comms.suggestions.ts';

const callerAsSender = (caller: AuthUser) => ({ id: caller.id, name: displayName(caller) });

/**
 * A person's message: stored and published, then, for every other participant, a suggested reply
 * (real people) or a scripted reply (demo colleagues) is prepared in the background.
 */
async function deliver(
  ctx: AppContext,
  threadId: string,
  sender: { id: string; name: string },
  text: string,
  aiSuggested = false,
): Promise<TCommsMessage> {
  const message = await storeMessage(ctx, { threadId, sender, text, aiSuggested });
  // Whoever writes has answered: their pending suggestion is stale.
  await repo.deleteSuggestion(ctx.db, threadId, sender.id);
  const participants = (await repo.participantsOf(ctx.db, [threadId])).map((p) => p.user_id);
  const others = participants.filter((id) => id !== sender.id);
  const scripted = new Set((await repo.scriptedUsers(ctx.db, others)).map((b) => b.user_id));
  for (const id of others) {
    if (!scripted.has(id)) await requestSuggestion(ctx, threadId, id, message.seq);
  }
  if (scripted.size) {
    await scheduleScriptedReplies(ctx, threadId, sender.id, participants, async (botId, line) => {
      await deliver(ctx, threadId, await senderOf(ctx, botId), line);
    });
  }
  return message;
}

export async function sendMessage(
  ctx: AppContext,
  caller: AuthUser,
  threadId: string,
  text: string,
): Promise<TCommsMessage> {
  await loadThread(ctx, caller, threadId);
  return deliver(ctx, threadId, callerAsSender(caller), text);
}

/** Use Suggestion: the (edited) text is sent as the caller's message, marked ai_suggested. */
export async function useSuggestion(
  ctx: AppContext,
  caller: AuthUser,
  threadId: string,
  text: string,
): Promise<TCommsMessage> {
  await loadThread(ctx, caller, threadId);
  await takeSuggestion(ctx, caller.id, threadId);
  const message = await deliver(ctx, threadId, callerAsSender(caller), text, true);
  // Sent, then recorded: delivery publishes to the thread's streams, so it cannot wait on the ledger.
  await recordActivity(ctx.db, {
    actorUserId: caller.id,
    via: 'ai',
    action: 'comms.message_sent',
    entityType: 'comms_message',
    entityId: message.id,
    summary: 'Sent an AI-drafted reply in a comms thread',
    after: { thread_id: threadId, text: message.text },
  });
  return message;
}

/**
 * Ignore: the suggestion goes and the thread gets the system message "AI suggestion dismissed by
 * user.", shown to the caller only (the other people never saw the suggestion).
 */
export async function dismissSuggestion(
  ctx: AppContext,
  caller: AuthUser,
  threadId: string,
): Promise<TCommsMessage> {
  await loadThread(ctx, caller, threadId);
  await takeSuggestion(ctx, caller.id, threadId);
  return storeMessage(ctx, {
    threadId,
    sender: null,
    text: COMMS_SUGGESTION_DISMISSED_TEXT,
    kind: 'system',
    visibleTo: caller.id,
  });
}

/** Tests and shutdown: wait until suggestions and scripted replies are done. */
export const commsIdle = (ctx: AppContext) => background(ctx).idle();
