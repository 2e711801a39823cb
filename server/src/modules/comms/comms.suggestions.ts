import { randomUUID } from 'node:crypto';
import {
  COMMS_SUGGESTION_EVENT,
  citationUrl,
  type TCommsSuggestion,
  type TRecordCitation,
  type ZPutSuggestionRequest,
} from '@cc/contract';
import type { z } from 'zod';
import type { JSONValue } from '@ai-sdk/provider';
import { generateText } from 'ai';
import { parseCitations, visibleCitations } from '../../ai/citations.ts';
import type { MeterScope } from '../../ai/metering/meter-scope.ts';
import { resolveModel } from '../../ai/models.ts';
import type { CommsReplyData } from '../../ai/offline/handlers/comms-reply.ts';
import { nowIso } from '../../db/index.ts';
import type { AuthUser } from '../../platform/auth/authenticate.ts';
import type { AppContext } from '../../platform/context.ts';
import { notFound } from '../../platform/errors.ts';
import { loadViewer } from '../../platform/viewer.ts';
import { listContacts } from '../contacts/contacts.service.ts';
import { getUserSummary } from '../users/users.service.ts';
import { background } from './comms.background.ts';
import { openDraftItem, resolveDraftItem } from './comms.inbox.ts';
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
  if (!s) return null;
  const viewer = await loadViewer(ctx, caller);
  return presentSuggestion(s, await visibleCitations(ctx, viewer, parseCitations(s.citations)));
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
  await openDraftItem(ctx, {
    threadId,
    userId: caller.id,
    text: body.text,
    basedOn: body.context?.trim() || null,
    replyTo: null,
  });
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
  /** Whom the model call is metered to: the signed-in user whose request sent the message. */
  meter: MeterScope,
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
  // The draft it replaces is stale: it leaves the inbox until the new one is written.
  await resolveDraftItem(ctx, threadId, recipientId, { status: 'resolved', resolvedBy: null });
  background(ctx).run('comms suggestion', async () => {
    let text: string;
    let data: CommsReplyData;
    let citations: TRecordCitation[];
    try {
      const written = await writeSuggestion(ctx, threadId, recipientId, meter);
      data = written.data;
      text = written.text.slice(0, MAX_SUGGESTION).trim();
      citations = written.citations;
    } catch (err) {
      // No half-made suggestion is left pending when the model fails.
      await repo.deleteSuggestionById(ctx.db, id);
      throw err;
    }
    if (!text) {
      await repo.deleteSuggestionById(ctx.db, id);
      return;
    }
    if (await repo.completeSuggestion(ctx.db, id, text, JSON.stringify(citations))) {
      await ctx.bus.publish(threadChannel(threadId), { kind: COMMS_SUGGESTION_EVENT, user_id: recipientId });
      const last = data.messages.filter((m) => !m.own).at(-1);
      await openDraftItem(ctx, {
        threadId,
        userId: recipientId,
        text,
        basedOn: last ? `${last.sender_name}: ${last.text}`.slice(0, 2000) : null,
        replyTo: data.sender_name || null,
      });
    }
  });
}

/**
 * The grounding: the thread's last messages and the recipient's contact record for the sender, and
 * the records it came from (the thread, the contact) for the suggestion's citations.
 */
async function replyData(
  ctx: AppContext,
  threadId: string,
  recipientId: string,
): Promise<{ data: CommsReplyData; used: TRecordCitation[] }> {
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
  const thread = await repo.findThreadFor(ctx.db, threadId, recipientId);
  const used: TRecordCitation[] = thread
    ? [
        {
          type: 'thread',
          id: threadId,
          title: thread.name ?? lastIncoming?.sender_name ?? 'Conversation',
          url: citationUrl('thread', threadId),
        },
      ]
    : [];
  if (recipient && lastIncoming?.sender_id) {
    const sender = await repo.userName(ctx.db, lastIncoming.sender_id);
    if (sender) {
      const found = await listContacts(ctx, recipient, { search: sender.email, skip: 0, limit: 5 });
      const c = found.find((x) => x.emails.includes(sender.email.toLowerCase()));
      if (c) {
        used.push({ type: 'contact', id: c.id, title: c.name, url: citationUrl('contact', c.id) });
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
    data: {
      recipient_name: recipient ? [recipient.first_name, recipient.last_name].filter(Boolean).join(' ') : '',
      sender_name: lastIncoming?.sender_name ?? '',
      messages,
      contact,
    },
    used,
  };
}

const SYSTEM =
  'You draft a short reply (one to three sentences) that the recipient of a workplace chat could send. ' +
  "Write in the recipient's voice, plain text, no greeting line, no signature, no markdown. Use only facts " +
  'from the conversation and the contact record given. Answer what was asked: a question gets an answer, ' +
  'or the decision the recipient has to make; a deadline is acknowledged with when it will be done. ' +
  'Never repeat the message back.';

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
async function writeSuggestion(
  ctx: AppContext,
  threadId: string,
  recipientId: string,
  meter: MeterScope,
): Promise<{ text: string; data: CommsReplyData; citations: TRecordCitation[] }> {
  const { data, used } = await replyData(ctx, threadId, recipientId);
  const { model } = resolveModel(ctx, null, { ...meter, feature: 'comms_suggestions' });
  const { text } = await generateText({
    model,
    system: SYSTEM,
    prompt: replyPrompt(data),
    abortSignal: AbortSignal.timeout(SUGGESTION_TIMEOUT_MS),
    maxRetries: 1,
    providerOptions: { offline: { task: 'comms-reply', data: data as unknown as JSONValue } },
  });
  return { text, data, citations: used };
}
