import type {
  TModelProviders,
  TModelProvidersUpdate,
  TModelProviderTest,
  TModelProviderTestResult,
} from '@cc/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api';
import { modelKeys } from '../../lib/queries/models';

/** Super Admin → Models. A 403 here means "not the platform admin", never an ended session. */
const quiet = { skipSessionRule: true } as const;
const PATH = '/api/admin/model-providers';

/** Under the models root: saving a provider refreshes the model list, the price table and this. */
export const modelProviderKeys = { providers: () => [...modelKeys.all, 'providers'] as const };

export const modelProvidersQuery = () =>
  queryOptions({
    queryKey: modelProviderKeys.providers(),
    queryFn: ({ signal }) => api<TModelProviders>(PATH, { ...quiet, signal }),
  });

export function useModelProviders() {
  return useQuery(modelProvidersQuery());
}

export function useSaveModelProviders() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: TModelProvidersUpdate) =>
      api<TModelProviders>(PATH, { ...quiet, method: 'PUT', json: body }),
    onSuccess: (saved) => {
      qc.setQueryData(modelProviderKeys.providers(), saved);
      // Which engine serves each model, the endpoint's models in the price table, the offline banner.
      void qc.invalidateQueries({ queryKey: modelKeys.all });
    },
  });
}

export function useTestModelProvider() {
  return useMutation({
    mutationFn: (body: TModelProviderTest) =>
      api<TModelProviderTestResult>(`${PATH}/test`, { ...quiet, method: 'POST', json: body }),
  });
}
