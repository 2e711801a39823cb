import { CONVERSATIONS_PAGE_SIZE, type TConversation } from '@cc/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../api';

/**
 * The caller's AI conversations: the Run page and the chat, the Test Run page's conversation picker,
 * and AI Factory (which opens a conversation to run a crew or flow in) all read and refresh these.
 */
export const conversationKeys = {
  all: ['conversations'] as const,
  list: () => [...conversationKeys.all, 'list'] as const,
  detail: (id: string) => [...conversationKeys.all, 'detail', id] as const,
};

const CONVERSATIONS = '/api/conversations/';

export const conversationsQuery = () =>
  queryOptions({
    queryKey: conversationKeys.list(),
    queryFn: ({ signal }) =>
      api<TConversation[]>(CONVERSATIONS, { signal, query: { skip: 0, limit: CONVERSATIONS_PAGE_SIZE } }),
  });

/** The caller's conversations, most recently updated first. */
export function useConversations() {
  return useQuery(conversationsQuery());
}

export function createConversation(name?: string) {
  return api<TConversation>(CONVERSATIONS, { method: 'POST', json: name === undefined ? {} : { name } });
}

/** Creates a conversation (named, or the server's default name); it is cached and the list refreshed. */
export function useCreateConversation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name?: string) => createConversation(name),
    onSuccess: (c) => {
      queryClient.setQueryData(conversationKeys.detail(c.id), c);
      void queryClient.invalidateQueries({ queryKey: conversationKeys.list() });
    },
  });
}
