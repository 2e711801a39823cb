import { COMMS_SUGGESTION_DISMISSED_TEXT, type TCommsMessage, ZUseSuggestionRequest } from '@cc/contract';
import { type MeterScope, meterScopeOf } from '../../ai/metering/meter-scope.ts';
import type { AuthUser } from '../../platform/auth/authenticate.ts';
import type { AppContext } from '../../platform/context.ts';
import { notFound } from '../../platform/errors.ts';
import { recordActivity } from '../activity/activity.ledger.ts';
import type { InboxHandler, InboxSources } from '../inbox/inbox.service.ts';
import { getUserSummary } from '../users/users.service.ts';
import { background } from './comms.background.ts';
import { parseDraftSourceId, resolveDraftItem } from './comms.inbox.ts';
import { scheduleScriptedReplies } from './comms.demo-replies.ts';
import { displayName } from './comms.presenter.ts';
import * as repo from './comms.repository.ts';
import { loadThread, senderOf, storeMessage } from './comms.service.ts';
import { NO_SUGGESTION, requestSuggestion, takeSuggestion } from './comms.suggestions.ts';

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
  /** The signed-in user whose request this is: the suggestions it sets off are metered to them. */
  meter: MeterScope,
  aiSuggested = false,
): Promise<TCommsMessage> {
  const message = await storeMessage(ctx, { threadId, sender, text, aiSuggested });
  // Whoever writes has answered: their pending suggestion is stale (used: settled by the caller).
  await repo.deleteSuggestion(ctx.db, threadId, sender.id);
  await resolveDraftItem(ctx, threadId, sender.id, { status: 'resolved', resolvedBy: sender.id });
  const participants = (await repo.participantsOf(ctx.db, [threadId])).map((p) => p.user_id);
  const others = participants.filter((id) => id !== sender.id);
  const scripted = new Set((await repo.scriptedUsers(ctx.db, others)).map((b) => b.user_id));
  for (const id of others) {
    if (!scripted.has(id)) await requestSuggestion(ctx, threadId, id, message.seq, meter);
  }
  if (scripted.size) {
    await scheduleScriptedReplies(ctx, threadId, sender.id, participants, async (botId, line) => {
      await deliver(ctx, threadId, await senderOf(ctx, botId), line, meter);
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
  return deliver(ctx, threadId, callerAsSender(caller), text, meterScopeOf(caller));
}

/** Use Suggestion: the (edited) text is sent as the caller's message, marked ai_suggested. */
export async function useSuggestion(
  ctx: AppContext,
  caller: AuthUser,
  threadId: string,
  text: string,
  /** The signed-in user (the inbox's actor when a delegate approves the draft): meters the replies' suggestions. */
  requester: AuthUser = caller,
): Promise<TCommsMessage> {
  await loadThread(ctx, caller, threadId);
  await takeSuggestion(ctx, caller.id, threadId);
  await resolveDraftItem(ctx, threadId, caller.id, { status: 'approved', resolvedBy: caller.id });
  const message = await deliver(ctx, threadId, callerAsSender(caller), text, meterScopeOf(requester), true);
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
  await resolveDraftItem(ctx, threadId, caller.id, { status: 'rejected', resolvedBy: caller.id });
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

/**
 * `comms_draft` items of the approvals inbox: approve = Use Suggestion (the draft, or `edits.text`),
 * reject = Ignore; both as the draft's recipient (the item may have been delegated).
 */
export const commsDraftInboxHandler: InboxHandler = {
  async approve(ctx, actor, sourceId, edits) {
    const { threadId, owner } = await draftOwner(ctx, sourceId);
    const draft = await repo.findSuggestion(ctx.db, threadId, owner.id);
    if (draft?.status !== 'ready') throw notFound(NO_SUGGESTION);
    const { text } = ZUseSuggestionRequest.parse({ text: edits.text ?? draft.text });
    await useSuggestion(ctx, owner, threadId, text, actor);
  },
  async reject(ctx, _actor, sourceId) {
    const { threadId, owner } = await draftOwner(ctx, sourceId);
    await dismissSuggestion(ctx, owner, threadId);
  },
};

async function draftOwner(ctx: AppContext, sourceId: string) {
  const { threadId, userId } = parseDraftSourceId(sourceId);
  const owner = await getUserSummary(ctx, userId);
  if (!owner) throw notFound(NO_SUGGESTION);
  return { threadId, owner };
}

/** The approvals inbox's `comms_draft` items are this module's (docs/architecture.md, "Registrations"). */
export function registerCommsInboxSources(sources: InboxSources): void {
  sources.register('comms_draft', commsDraftInboxHandler);
}
