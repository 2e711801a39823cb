import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api';
import { FACTORY_PATHS, type FactoryKind, factoryKeys } from '../../lib/queries/factory-items';
import type {
  Agent,
  CreateAgentBody,
  CreateCrewBody,
  CreateFlowBody,
  CreateToolBody,
  Crew,
  Flow,
  Tool,
} from './types';

export const itemPath = (kind: FactoryKind, id: string) => `${FACTORY_PATHS[kind]}${encodeURIComponent(id)}`;

function useCreate<B, R>(kind: FactoryKind) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: B) => api<R>(FACTORY_PATHS[kind], { method: 'POST', json: body }),
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
