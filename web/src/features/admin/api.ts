import type { TAdminCreateUserRequest, TAdminUpdateUserRequest, TUser } from '@cc/contract';
import { MAX_PAGE_SIZE } from '@cc/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api';
import { currentUserKey } from '../../lib/auth';
import { organizationKeys } from '../../lib/queries/organizations';
import { userKeys } from '../../lib/queries/users';

export const adminKeys = {
  all: ['admin'] as const,
  users: () => [...adminKeys.all, 'users'] as const,
};

export const adminUsersQuery = () =>
  queryOptions({
    queryKey: adminKeys.users(),
    queryFn: ({ signal }) =>
      api<TUser[]>('/api/users/', { signal, query: { skip: 0, limit: MAX_PAGE_SIZE } }),
  });

export function useAdminUsers() {
  return useQuery(adminUsersQuery());
}

function useInvalidateUsers() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: adminKeys.all }),
      // The admin may have changed their own record, or an organization's member list.
      queryClient.invalidateQueries({ queryKey: currentUserKey }),
      queryClient.invalidateQueries({ queryKey: organizationKeys.all }),
      queryClient.invalidateQueries({ queryKey: userKeys.assignable() }),
    ]);
}

export function useCreateUser() {
  const invalidate = useInvalidateUsers();
  return useMutation({
    mutationFn: (body: TAdminCreateUserRequest) => api<TUser>('/api/users/', { method: 'POST', json: body }),
    onSuccess: invalidate,
  });
}

export function useUpdateUser() {
  const invalidate = useInvalidateUsers();
  return useMutation({
    mutationFn: ({ id, changes }: { id: string; changes: TAdminUpdateUserRequest }) =>
      api<TUser>(`/api/users/${encodeURIComponent(id)}`, { method: 'PATCH', json: changes }),
    onSuccess: invalidate,
  });
}

export function useDeleteUser() {
  const invalidate = useInvalidateUsers();
  return useMutation({
    mutationFn: (id: string) => api<void>(`/api/users/${encodeURIComponent(id)}`, { method: 'DELETE' }),
    onSuccess: invalidate,
  });
}
