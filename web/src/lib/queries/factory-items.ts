import type { TAgent, TCrew, TFlow, TTool } from '@cc/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../api';

/** The four AI Factory lists; crews and flows are also what a conversation's run picker offers. */
export type FactoryKind = 'crew' | 'agent' | 'tool' | 'flow';

interface FactoryItems {
  crew: TCrew;
  agent: TAgent;
  tool: TTool;
  flow: TFlow;
}

export const factoryKeys = {
  all: ['factory'] as const,
  list: (kind: FactoryKind) => [...factoryKeys.all, kind] as const,
};

export const FACTORY_PATHS: Record<FactoryKind, string> = {
  crew: '/api/crews/',
  agent: '/api/agents/',
  tool: '/api/tools/',
  flow: '/api/flows/',
};

function useFactoryList<K extends FactoryKind>(kind: K) {
  return useQuery({
    queryKey: factoryKeys.list(kind),
    queryFn: ({ signal }) => api<FactoryItems[K][]>(FACTORY_PATHS[kind], { signal }),
    placeholderData: keepPreviousData,
  });
}

export const useCrews = () => useFactoryList('crew');
export const useAgents = () => useFactoryList('agent');
export const useTools = () => useFactoryList('tool');
export const useFlows = () => useFactoryList('flow');
