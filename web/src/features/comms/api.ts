import type {
  TAssignableUser,
  TCommsMessage,
  TCommsSuggestion,
  TCommsSuggestionResponse,
  TCommsThread,
} from '@cc/contract';
import { type QueryClient, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, isApiError } from '../../lib/api';

export type Thread = TCommsThread;
export type Message = TCommsMessage;
export type Suggestion = TCommsSuggestion;
export type AppContact = TAssignableUser;

export const commsKeys = {
  all: ['comms'] as const,
  threads: ['comms', 'threads'] as const,
  thread: (id: string) => ['comms', 'thread', id] as const,
  messages: (id: string) => ['comms', 'messages', id] as const,
  suggestion: (id: string) => ['comms', 'suggestion', id] as const,
};

const threadPath = (id: string) => `/api/comms/threads/${encodeURIComponent(id)}`;
export const threadEventsPath = (id: string) => `${threadPath(id)}/events`;

/** The list refreshes by itself too: a new conversation started by someone else has no stream here yet. */
export const useThreads = () =>
  useQuery({
    queryKey: commsKeys.threads,
    queryFn: ({ signal }) => api<Thread[]>('/api/comms/threads', { signal }),
    refetchInterval: 15_000,
  });

export const useThread = (id: string | null) =>
  useQuery({
    queryKey: commsKeys.thread(id ?? ''),
    queryFn: ({ signal }) => api<Thread>(threadPath(id ?? ''), { signal }),
    enabled: Boolean(id),
    // A thread the reader is not in (a link, a citation) is 404 at once: asking again changes nothing.
    retry: (failures, err) => !(isApiError(err) && err.status === 404) && failures < 1,
  });

export const useMessages = (id: string | null) =>
  useQuery({
    queryKey: commsKeys.messages(id ?? ''),
    queryFn: ({ signal }) => api<Message[]>(`${threadPath(id ?? '')}/messages`, { signal }),
    enabled: Boolean(id),
    staleTime: Number.POSITIVE_INFINITY,
  });

export const fetchEarlierMessages = (id: string, before: number) =>
  api<Message[]>(`${threadPath(id)}/messages`, { query: { before } });

export const useSuggestion = (id: string | null) =>
  useQuery({
    queryKey: commsKeys.suggestion(id ?? ''),
    queryFn: async ({ signal }) =>
      (await api<TCommsSuggestionResponse>(`${threadPath(id ?? '')}/suggestion`, { signal })).suggestion,
    enabled: Boolean(id),
  });

/** Adds messages to a thread's cache in seq order, once each (stream and POST answers overlap). */
export function mergeMessages(current: Message[] | undefined, incoming: Message[]): Message[] {
  const byId = new Map((current ?? []).map((m) => [m.id, m]));
  for (const m of incoming) byId.set(m.id, m);
  return [...byId.values()].sort((a, b) => a.seq - b.seq);
}

export function addMessages(qc: QueryClient, threadId: string, incoming: Message[]) {
  qc.setQueryData<Message[]>(commsKeys.messages(threadId), (cur) => mergeMessages(cur, incoming));
}

export const useCreateThread = () => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (participantIds: string[]) =>
      api<Thread>('/api/comms/threads', { method: 'POST', json: { participant_ids: participantIds } }),
    onSuccess: (t) => {
      qc.setQueryData(commsKeys.thread(t.id), t);
      void qc.invalidateQueries({ queryKey: commsKeys.threads });
    },
  });
};

export const useRenameThread = () => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, name }: { id: string; name: string }) =>
      api<Thread>(threadPath(id), { method: 'PATCH', json: { name } }),
    onSuccess: (t) => {
      qc.setQueryData(commsKeys.thread(t.id), t);
      void qc.invalidateQueries({ queryKey: commsKeys.threads });
    },
  });
};

export const useDeleteThread = () => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<void>(threadPath(id), { method: 'DELETE' }),
    onSuccess: (_v, id) => {
      qc.setQueryData<Thread[]>(commsKeys.threads, (cur) => cur?.filter((t) => t.id !== id));
      qc.removeQueries({ queryKey: commsKeys.messages(id) });
      void qc.invalidateQueries({ queryKey: commsKeys.threads });
    },
  });
};

export const useSendMessage = (threadId: string) => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (text: string) =>
      api<Message>(`${threadPath(threadId)}/messages`, { method: 'POST', json: { text } }),
    onSuccess: (m) => {
      addMessages(qc, threadId, [m]);
      // Replying by hand makes the pending suggestion stale (the server drops it too).
      qc.setQueryData(commsKeys.suggestion(threadId), null);
      void qc.invalidateQueries({ queryKey: commsKeys.threads });
    },
  });
};

export const useUseSuggestion = (threadId: string) => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (text: string) =>
      api<Message>(`${threadPath(threadId)}/suggestion/use`, { method: 'POST', json: { text } }),
    onSuccess: (m) => {
      addMessages(qc, threadId, [m]);
      qc.setQueryData(commsKeys.suggestion(threadId), null);
      void qc.invalidateQueries({ queryKey: commsKeys.threads });
    },
  });
};

export const useDismissSuggestion = (threadId: string) => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => api<Message>(`${threadPath(threadId)}/suggestion/dismiss`, { method: 'POST' }),
    onSuccess: (m) => {
      addMessages(qc, threadId, [m]);
      qc.setQueryData(commsKeys.suggestion(threadId), null);
    },
  });
};

/** A suggestion brought by navigation state (recipientName + initialAiSuggestionText). */
export const putSuggestion = (threadId: string, text: string, context: string | null) =>
  api<Suggestion>(`${threadPath(threadId)}/suggestion`, { method: 'PUT', json: { text, context } });

export const createThread = (participantIds: string[]) =>
  api<Thread>('/api/comms/threads', { method: 'POST', json: { participant_ids: participantIds } });
