import type { TApiKey, TCreateApiKeyRequest, TCreatedApiKey } from '@cc/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api';

const apiKeysKey = ['api-keys'] as const;

export function useApiKeys() {
  return useQuery({ queryKey: apiKeysKey, queryFn: () => api<TApiKey[]>('/api/users/me/api-keys') });
}

export function useCreateApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TCreateApiKeyRequest) =>
      api<TCreatedApiKey>('/api/users/me/api-keys', { method: 'POST', json: body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiKeysKey }),
  });
}

export function useRevokeApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<null>(`/api/users/me/api-keys/${id}`, { method: 'DELETE' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiKeysKey }),
  });
}
