import type { TUpdateMeRequest, TUser } from '@cc/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api';
import { currentUserKey } from '../../lib/auth';

/** PATCH /api/users/me with only the changed fields; the answer replaces the cached current user. */
export function useUpdateMe() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (changes: TUpdateMeRequest) =>
      api<TUser>('/api/users/me', { method: 'PATCH', json: changes }),
    onSuccess: (user) => queryClient.setQueryData(currentUserKey, user),
  });
}

/** Ends every session of the account (this one too) and revokes every API key. */
export function useSignOutEverywhere() {
  return useMutation({
    mutationFn: () => api<null>('/api/auth/logout-everywhere', { method: 'POST' }),
  });
}
