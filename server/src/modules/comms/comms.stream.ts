import { COMMS_SUGGESTION_EVENT } from '@cc/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AuthUser } from '../../platform/auth/authenticate.ts';
import type { AppContext } from '../../platform/context.ts';
import { openSseStream, type SseMessage } from '../../platform/realtime/sse.ts';
import { presentMessage } from './comms.presenter.ts';
import * as repo from './comms.repository.ts';
import { loadThread, threadChannel } from './comms.service.ts';

/** A message as the stream sends it, with whom it is for (a note for one participant only). */
interface ThreadEvent extends SseMessage {
  visibleTo: string | null;
}

/** One event object per note, so every stream of the thread sends the same serialized frame. */
const suggestionEvents = new WeakMap<object, SseMessage>();
function suggestionEvent(payload: object, threadId: string): SseMessage {
  let msg = suggestionEvents.get(payload);
  if (!msg) {
    msg = { event: COMMS_SUGGESTION_EVENT, data: { thread_id: threadId } };
    suggestionEvents.set(payload, msg);
  }
  return msg;
}

const parseCursor = (cursor: string | null) => {
  const n = Number(cursor);
  return Number.isSafeInteger(n) && n > 0 ? n : 0;
};

/**
 * GET /api/comms/threads/{id}/events: the thread's new messages (`id` is the message's seq, so a
 * reconnect resumes with Last-Event-ID), and a `suggestion` event when the viewer's suggested reply is
 * ready. Without a cursor the stream starts after the latest message (the screen loads history by
 * GET /messages). Participants only: anyone else gets 404 like the REST routes.
 */
export async function streamThread(
  ctx: AppContext,
  caller: AuthUser,
  threadId: string,
  req: FastifyRequest,
  reply: FastifyReply,
): Promise<void> {
  const thread = await loadThread(ctx, caller, threadId);
  const visible = (m: SseMessage) => {
    const to = (m as ThreadEvent).visibleTo;
    return to === null || to === caller.id;
  };
  await openSseStream(req, reply, ctx, {
    channel: threadChannel(threadId),
    initialCursor: async () => String(await repo.maxSeq(ctx.db, threadId)),
    // storeMessage() notes a message once its write is on disk.
    durableCursor: (payload) => (payload.seq != null ? String(payload.seq) : null),
    // One read and one serialization per new message however many streams follow the thread (a thread
    // with 2,000 open streams is one query, not 2,000); each stream keeps what its viewer may see.
    // Participants who cleared the thread at the same point read the same rows.
    shareKey: `comms:${threadId}:${thread.cleared_seq}`,
    keep: visible,
    loadAfter: async (cursor, limit): Promise<SseMessage[]> => {
      const after = Math.max(parseCursor(cursor), thread.cleared_seq);
      const rows = await repo.messagesAfter(ctx.db, { threadId, after, limit });
      return rows.map(
        (m): ThreadEvent => ({
          id: String(m.seq),
          data: JSON.stringify(presentMessage(m)),
          visibleTo: m.visible_to,
        }),
      );
    },
    onEphemeral: (payload) => {
      if (payload.kind !== COMMS_SUGGESTION_EVENT) return null;
      if (payload.user_id !== caller.id) return null;
      return suggestionEvent(payload, threadId);
    },
  });
}
