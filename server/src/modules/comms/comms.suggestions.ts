import { randomUUID } from 'node:crypto';
import { COMMS_SUGGESTION_EVENT, type TCommsSuggestion, type ZPutSuggestionRequest } from '@cc/contract';
import type { z } from 'zod';
import type { JSONValue } from '@ai-sdk/provider';
import { generateText } from 'ai';
import { resolveModel } from '../../ai/models.ts';
import type { CommsReplyData } from '../../ai/offline/handlers/comms-reply.ts';
import { nowIso } from '../../db/index.ts';
import type { AuthUser } from '../../platform/auth/authenticate.ts';
import type { AppContext } from '../../platform/context.ts';
import { notFound } from '../../platform/errors.ts';
import { listContacts } from '../contacts/contacts.service.ts';
import { getUserSummary } from '../users/users.service.ts';
import { background } from './comms.background.ts';
import { presentSuggestion } from './comms.presenter.ts';
import * as repo from './comms.repository.ts';
import { loadThread, threadChannel } from './comms.service.ts';

const CONTEXT_MESSAGES = 10;
const MAX_SUGGESTION = 1000;
const SUGGESTION_TIMEOUT_MS = 30_000;

export const NO_SUGGESTION = 'There is no AI suggestion for this conversation.';

export async function getSuggestion(
  ctx: AppContext,
  caller: AuthUser,
  threadId: string,
): Promise<TCommsSuggestion | null> {
  await loadThread(ctx, caller, threadId);
  const s = await repo.findSuggestion(ctx.db, threadId, caller.id);
  return s ? presentSuggestion(s) : null;
}

/** A suggestion the screen brings (navigation state): it replaces the caller's current one. */
export async function putSuggestion(
  ctx: AppContext,
  caller: AuthUser,
  threadId: string,
  body: z.output<typeof ZPutSuggestionRequest>,
): Promise<TCommsSuggestion> {
  await loadThread(ctx, caller, threadId);
  await repo.putSuggestion(ctx.db, {
    id: randomUUID(),
    thread_id: threadId,
    user_id: caller.id,
    status: 'ready',
    text: body.text,
    context: body.context?.trim() || null,
    for_seq: 0,
    created_at: nowIso(),
  });
  const s = await repo.findSuggestion(ctx.db, threadId, caller.id);
  return presentSuggestion(s as NonNullable<typeof s>);
}

/** Removes and returns the caller's suggestion (used or ignored); 404 when there is none. */
export async function takeSuggestion(ctx: AppContext, callerId: string, threadId: string) {
  const s = await repo.findSuggestion(ctx.db, threadId, callerId);
  if (!s) throw notFound(NO_SUGGESTION);
  await repo.deleteSuggestionById(ctx.db, s.id);
  return s;
}

/**
 * A message from someone else arrived: the recipient gets a pending suggestion now, and its text is
 * written in the background after the message is stored; the thread's streams hear about it when ready.
 */
export async function requestSuggestion(
  ctx: AppContext,
  threadId: string,
  recipientId: string,
  forSeq: number,
): Promise<void> {
  const id = randomUUID();
  await repo.putSuggestion(ctx.db, {
    id,
    thread_id: threadId,
    user_id: recipientId,
    status: 'pending',
    text: '',
    context: null,
    for_seq: forSeq,
    created_at: nowIso(),
  });
  background(ctx).run('comms suggestion', async () => {
    let text: string;
    try {
      text = (await writeSuggestion(ctx, threadId, recipientId)).slice(0, MAX_SUGGESTION).trim();
    } catch (err) {
      // No half-made suggestion is left pending when the model fails.
      await repo.deleteSuggestionById(ctx.db, id);
      throw err;
    }
    if (!text) {
      await repo.deleteSuggestionById(ctx.db, id);
      return;
    }
    if (await repo.completeSuggestion(ctx.db, id, text)) {
      await ctx.bus.publish(threadChannel(threadId), { kind: COMMS_SUGGESTION_EVENT, user_id: recipientId });
    }
  });
}

/** The grounding: the thread's last messages and the recipient's contact record for the sender. */
async function replyData(ctx: AppContext, threadId: string, recipientId: string): Promise<CommsReplyData> {
  const rows = await repo.latestMessages(ctx.db, {
    threadId,
    viewerId: recipientId,
    after: 0,
    limit: CONTEXT_MESSAGES,
  });
  const messages = rows
    .reverse()
    .filter((m) => m.kind === 'user')
    .map((m) => ({ sender_name: m.sender_name, text: m.text, own: m.sender_id === recipientId }));
  const lastIncoming = rows.find((m) => m.kind === 'user' && m.sender_id && m.sender_id !== recipientId);
  const recipient = await getUserSummary(ctx, recipientId);
  let contact: CommsReplyData['contact'] = null;
  if (recipient && lastIncoming?.sender_id) {
    const sender = await repo.userName(ctx.db, lastIncoming.sender_id);
    if (sender) {
      const found = await listContacts(ctx, recipient, { search: sender.email, skip: 0, limit: 5 });
      const c = found.find((x) => x.emails.includes(sender.email.toLowerCase()));
      if (c) {
        const last = c.past_interactions[0];
        contact = {
          name: c.name,
          role: c.role,
          notes: c.notes,
          last_interaction: last ? { date: last.date, summary: last.summary } : null,
        };
      }
    }
  }
  return {
    recipient_name: recipient ? [recipient.first_name, recipient.last_name].filter(Boolean).join(' ') : '',
    sender_name: lastIncoming?.sender_name ?? '',
    messages,
    contact,
  };
}

const SYSTEM =
  'You draft a short reply (one to three sentences) that the recipient of a workplace chat could send. ' +
  "Write in the recipient's voice, plain text, no greeting line, no signature, no markdown. Use only facts " +
  'from the conversation and the contact record given.';

function replyPrompt(d: CommsReplyData): string {
  const lines = d.messages.map(
    (m) => `${m.own ? `${d.recipient_name || 'Me'} (me)` : m.sender_name}: ${m.text}`,
  );
  const contact = d.contact
    ? `Contact record for ${d.contact.name}${d.contact.role ? ` (${d.contact.role})` : ''}: ` +
      `${d.contact.notes ?? 'no notes'}` +
      (d.contact.last_interaction
        ? `; last interaction ${d.contact.last_interaction.date}: ${d.contact.last_interaction.summary}`
        : '')
    : 'No contact record.';
  return `Conversation (oldest first):\n${lines.join('\n')}\n\n${contact}\n\nDraft my reply to ${d.sender_name}.`;
}

/** The reply text: from the configured model, or the offline engine's comms-reply handler. */
async function writeSuggestion(ctx: AppContext, threadId: string, recipientId: string): Promise<string> {
  const data = await replyData(ctx, threadId, recipientId);
  const { model } = resolveModel(ctx, null, { feature: 'comms_suggestions' });
  const { text } = await generateText({
    model,
    system: SYSTEM,
    prompt: replyPrompt(data),
    abortSignal: AbortSignal.timeout(SUGGESTION_TIMEOUT_MS),
    maxRetries: 1,
    providerOptions: { offline: { task: 'comms-reply', data: data as unknown as JSONValue } },
  });
  return text;
}
