import {
  CHAT_FAILURE_TEXT,
  type TChatRequest,
  type TConversationDeltaEvent,
  type TConversationMessage,
} from '@cc/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { isApiError } from '../../lib/api';
import { type StreamMessage, useEventStream } from '../../lib/event-stream';
import { conversationKeys } from '../../lib/queries/conversations';
import { conversationPath, exchangeText, fetchMessages, mineMemory, sendChat, stopChat } from './api';
import { MessageStore } from './message-store';

export type ChatSettings = Omit<TChatRequest, 'message_text'>;

function isMessage(data: unknown): data is TConversationMessage {
  return !!data && typeof data === 'object' && 'id' in data && 'sender' in data && 'text' in data;
}

/**
 * The log of one conversation: its latest page, older pages on demand, the live stream (new messages
 * and reply deltas), and sending/stopping a chat message.
 */
export function useConversationLog(conversationId: string) {
  const queryClient = useQueryClient();
  const [store] = useState(() => new MessageStore());
  const [loading, setLoading] = useState(true);
  const [loadError, setLoadError] = useState<unknown>(null);
  const [hasMore, setHasMore] = useState(false);
  const [loadingOlder, setLoadingOlder] = useState(false);
  const [cursor, setCursor] = useState<string | null>(null);
  const [replying, setReplying] = useState(false);
  /** The server's reason a message was refused unsent (a per-user limit, 429), shown by the composer. */
  const [refusal, setRefusal] = useState<string | null>(null);
  const inflight = useRef<AbortController | null>(null);

  useEffect(() => {
    const ctrl = new AbortController();
    setLoading(true);
    setLoadError(null);
    fetchMessages(conversationId, undefined, ctrl.signal)
      .then((page) => {
        store.upsert(page.items);
        setHasMore(page.has_more);
        setCursor(page.cursor);
        setLoading(false);
      })
      .catch((err) => {
        if (ctrl.signal.aborted) return;
        setLoadError(err);
        setLoading(false);
      });
    return () => ctrl.abort();
  }, [conversationId, store]);

  // Cancel a reply in flight when leaving the page.
  useEffect(() => () => inflight.current?.abort(), []);

  const onMessage = useCallback(
    (msg: StreamMessage) => {
      if (msg.event === 'delta') {
        const d = msg.data as TConversationDeltaEvent;
        if (d && typeof d.message_id === 'string') store.applyDelta(d.message_id, d.offset, d.text);
        return;
      }
      if (isMessage(msg.data)) store.upsert([msg.data]);
    },
    [store],
  );

  const streamPath =
    cursor === null
      ? null
      : `${conversationPath(conversationId)}/events?last_event_id=${encodeURIComponent(cursor)}`;
  const streamStatus = useEventStream(streamPath, { onMessage });

  const loadOlder = useCallback(async () => {
    const first = store.all().find((m) => !m.local);
    if (!first || loadingOlder) return;
    setLoadingOlder(true);
    try {
      const page = await fetchMessages(conversationId, first.position);
      store.upsert(page.items);
      setHasMore(page.has_more);
    } catch {
      // The button stays; the user may try again.
    } finally {
      setLoadingOlder(false);
    }
  }, [conversationId, loadingOlder, store]);

  /** Sends a message; resolves false when the server refused it unsent (nothing was stored). */
  const send = useCallback(
    async (text: string, settings: ChatSettings): Promise<boolean> => {
      const messageText = text.trim();
      if (!messageText || inflight.current) return false;
      const ctrl = new AbortController();
      inflight.current = ctrl;
      setReplying(true);
      setRefusal(null);
      const sent = store.addLocal('user', messageText, 'complete');
      const placeholder = store.addLocal('assistant', '', 'streaming');
      // The reply of this send: the placeholder until the server's streaming message replaces it.
      const currentReply = () =>
        store.get(placeholder) ??
        [...store.all()].reverse().find((m) => m.sender === 'assistant' && m.status === 'streaming');
      try {
        const res = await sendChat(conversationId, { ...settings, message_text: messageText }, ctrl.signal);
        if (store.get(res.id)) {
          store.patch(res.id, { text: res.content, status: res.status });
        } else {
          store.patch(placeholder, { text: res.content, status: res.status });
        }
        // Mined after the answer, from the exchange: the reply never "remembers" the question just asked.
        if (settings.use_memory && res.status === 'complete') {
          void mineMemory(conversationId, exchangeText(messageText, res.content)).catch(() => {});
        }
        return true;
      } catch (err) {
        if (isApiError(err) && err.status === 429) {
          // Refused before anything was stored: the message leaves the log and the reason shows.
          store.remove(sent);
          store.remove(placeholder);
          setRefusal(err.message);
          return false;
        }
        const reply = currentReply();
        if (ctrl.signal.aborted) {
          if (reply?.local) store.patch(reply.id, { status: 'stopped' });
        } else if (reply && (reply.local || reply.text.trim() === '')) {
          store.patch(reply.id, { text: CHAT_FAILURE_TEXT, status: 'failed' });
        }
        return true;
      } finally {
        inflight.current = null;
        setReplying(false);
        void queryClient.invalidateQueries({ queryKey: conversationKeys.list() });
      }
    },
    [conversationId, queryClient, store],
  );

  /** The stop button: aborting the request stops the model call; the explicit stop covers a lost request. */
  const stop = useCallback(() => {
    if (!inflight.current) return;
    inflight.current.abort();
    void stopChat(conversationId).catch(() => {});
  }, [conversationId]);

  return {
    store,
    loading,
    loadError,
    hasMore,
    loadingOlder,
    loadOlder,
    send,
    stop,
    replying,
    refusal,
    streamStatus,
  };
}
