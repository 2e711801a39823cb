import {
  MAX_MEMORY_MINE_CHARS,
  MESSAGES_PAGE_SIZE,
  type TChatRequest,
  type TChatResponse,
  type TConversation,
  type TFileItem,
  type TMessagesPage,
} from '@cc/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api';
import { conversationKeys } from '../../lib/queries/conversations';
import { transfer } from '../../lib/upload';
import { formatStampForName } from '../../lib/format';

export type Conversation = TConversation;

export const conversationPath = (id: string) => `/api/conversations/${encodeURIComponent(id)}`;

export function useConversation(id: string) {
  return useQuery({
    queryKey: conversationKeys.detail(id),
    queryFn: ({ signal }) => api<Conversation>(conversationPath(id), { signal }),
    retry: (count, err) => (err as { status?: number }).status !== 404 && count < 1,
  });
}

export function useRenameConversation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, name }: { id: string; name: string }) =>
      api<Conversation>(conversationPath(id), { method: 'PUT', json: { name } }),
    onSuccess: (c) => {
      queryClient.setQueryData(conversationKeys.detail(c.id), c);
      void queryClient.invalidateQueries({ queryKey: conversationKeys.list() });
    },
  });
}

export function useDeleteConversation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<void>(conversationPath(id), { method: 'DELETE' }),
    onSuccess: (_v, id) => {
      queryClient.removeQueries({ queryKey: conversationKeys.detail(id) });
      void queryClient.invalidateQueries({ queryKey: conversationKeys.list() });
    },
  });
}

/** One page of the log: the latest, or the one before a position. */
export function fetchMessages(id: string, before?: number, signal?: AbortSignal) {
  return api<TMessagesPage>(`${conversationPath(id)}/messages`, {
    signal,
    query: { before, limit: MESSAGES_PAGE_SIZE },
  });
}

/** Sends a message; resolves with the finished reply (it streams on the events stream meanwhile). */
export function sendChat(id: string, body: TChatRequest, signal: AbortSignal) {
  return api<TChatResponse>(`${conversationPath(id)}/chat`, { method: 'POST', json: body, signal });
}

export function stopChat(id: string) {
  return api<{ stopped: boolean }>(`${conversationPath(id)}/chat/stop`, { method: 'POST' });
}

/**
 * One exchange as memory mining reads it: the facts come from the "User:" part, the reply is context.
 * The server splits on these markers (server/src/ai/memory/extract.ts).
 */
export function exchangeText(question: string, answer: string): string {
  // The question comes first, so a cut at the request's limit only shortens the reply.
  return `User: ${question}\n\nAssistant: ${answer}`.slice(0, MAX_MEMORY_MINE_CHARS);
}

/** With Memory on, the exchange is mined for durable facts once answered (spec section 7). */
export function mineMemory(conversationId: string, content: string) {
  return api('/api/memory/mine', {
    method: 'POST',
    json: { content, metadata: { conversation_id: conversationId } },
  });
}

/**
 * "Conversation 22 Nov 2026, 14:05": the run list's default name (the word plus the local date and
 * time). Stored and seen by others, so one unambiguous form rather than the writer's locale.
 */
export function defaultInteractionName(now = new Date()): string {
  return `Conversation ${formatStampForName(now)}`;
}

/** Files attached in a conversation, newest first. */
export function useConversationAttachments(conversationId: string) {
  return useQuery({
    queryKey: [...conversationKeys.all, 'attachments', conversationId] as const,
    queryFn: ({ signal }) => api<TFileItem[]>(`${conversationPath(conversationId)}/attachments`, { signal }),
  });
}

/** Uploads files into a conversation (the model gets their text as context); refreshes its list. */
export function useAttachFiles(conversationId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (files: readonly File[]) => {
      const form = new FormData();
      for (const f of files) form.append('files', f, f.name);
      return transfer<TFileItem[]>(`/api/files/?conversation_id=${encodeURIComponent(conversationId)}`, {
        method: 'POST',
        body: form,
      });
    },
    onSettled: () =>
      qc.invalidateQueries({ queryKey: [...conversationKeys.all, 'attachments', conversationId] }),
  });
}
