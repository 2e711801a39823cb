import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api';
import type {
  Agent,
  CreateAgentBody,
  CreateCrewBody,
  CreateFlowBody,
  CreateToolBody,
  Crew,
  FactoryKind,
  Flow,
  Tool,
} from './types';

export const factoryKeys = {
  all: ['factory'] as const,
  list: (kind: FactoryKind) => [...factoryKeys.all, kind] as const,
};

const PATHS: Record<FactoryKind, string> = {
  crew: '/api/crews/',
  agent: '/api/agents/',
  tool: '/api/tools/',
  flow: '/api/flows/',
};

export const itemPath = (kind: FactoryKind, id: string) => `${PATHS[kind]}${encodeURIComponent(id)}`;

function useList<T>(kind: FactoryKind) {
  return useQuery({
    queryKey: factoryKeys.list(kind),
    queryFn: ({ signal }) => api<T[]>(PATHS[kind], { signal }),
    placeholderData: keepPreviousData,
  });
}

export const useCrews = () => useList<Crew>('crew');
export const useAgents = () => useList<Agent>('agent');
export const useTools = () => useList<Tool>('tool');
export const useFlows = () => useList<Flow>('flow');

function useCreate<B, R>(kind: FactoryKind) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: B) => api<R>(PATHS[kind], { method: 'POST', json: body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: factoryKeys.list(kind) }),
  });
}

export const useCreateCrew = () => useCreate<CreateCrewBody, Crew>('crew');
export const useCreateAgent = () => useCreate<CreateAgentBody, Agent>('agent');
export const useCreateTool = () => useCreate<CreateToolBody, Tool>('tool');
export const useCreateFlow = () => useCreate<CreateFlowBody, Flow>('flow');

export const useDeleteItem = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ kind, id }: { kind: FactoryKind; id: string }) =>
      api<void>(itemPath(kind, id), { method: 'DELETE' }),
    onSettled: (_d, _e, { kind }) => queryClient.invalidateQueries({ queryKey: factoryKeys.list(kind) }),
  });
};

/** A conversation named after the crew or flow being run (the run starts on the conversation page). */
export const useCreateConversation = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name: string) =>
      api<{ id: string; name: string }>('/api/conversations/', { json: { name } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['conversations'] }),
  });
};
