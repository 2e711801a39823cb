import type { TConnection, TConnectionTestResult, TCreateConnectionRequest } from '@cc/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api';
import { connectionKeys } from './queries';

function useConnectionMutation<T, V>(fn: (v: V) => Promise<T>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: connectionKeys.all }),
  });
}

export const useAddConnection = () =>
  useConnectionMutation((body: TCreateConnectionRequest) =>
    api<TConnection>('/api/connections/', { method: 'POST', json: body }),
  );

export const useDisconnect = () =>
  useConnectionMutation((id: string) =>
    api<null>(`/api/connections/${encodeURIComponent(id)}`, { method: 'DELETE' }),
  );

export const useSyncNow = () =>
  useConnectionMutation((id: string) =>
    api<TConnection>(`/api/connections/${encodeURIComponent(id)}/sync`, { method: 'POST' }),
  );

/** Test changes nothing stored: no list refresh. */
export const useTestConnection = () =>
  useMutation({
    mutationFn: (id: string) =>
      api<TConnectionTestResult>(`/api/connections/${encodeURIComponent(id)}/test`, { method: 'POST' }),
  });
