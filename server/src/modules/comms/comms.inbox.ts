import type { AppContext } from '../../platform/context.ts';
import { type InboxOutcome, openInboxItem, resolveInboxItem } from '../inbox/inbox.service.ts';

/**
 * An AI-drafted reply (a ready comms suggestion) waits in its recipient's approvals inbox: one item
 * per thread and person, like the suggestion itself (source id `<thread id>:<user id>`).
 */
export const draftSourceId = (threadId: string, userId: string) => `${threadId}:${userId}`;

export function parseDraftSourceId(sourceId: string): { threadId: string; userId: string } {
  const [threadId = '', userId = ''] = sourceId.split(':');
  return { threadId, userId };
}

export async function openDraftItem(
  ctx: AppContext,
  d: { threadId: string; userId: string; text: string; basedOn: string | null; replyTo: string | null },
): Promise<void> {
  await openInboxItem(ctx, {
    kind: 'comms_draft',
    sourceType: 'comms_thread',
    sourceId: draftSourceId(d.threadId, d.userId),
    sourceUrl: `/app/comms?thread=${encodeURIComponent(d.threadId)}`,
    assigneeUserId: d.userId,
    title: d.replyTo ? `Suggested reply to ${d.replyTo}` : 'Suggested reply',
    summary: d.text,
    details: { text: d.text, based_on: d.basedOn, thread_id: d.threadId },
  });
}

export const resolveDraftItem = (ctx: AppContext, threadId: string, userId: string, outcome: InboxOutcome) =>
  resolveInboxItem(ctx, 'comms_draft', draftSourceId(threadId, userId), outcome);
