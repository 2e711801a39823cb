import type { TAdminCreateUserRequest, TAdminUpdateUserRequest, TOrganization, TUser } from '@cc/contract';
import { MAX_PAGE_SIZE } from '@cc/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api';
import { currentUserKey } from '../../lib/auth';

export const adminKeys = {
  all: ['admin'] as const,
  users: () => [...adminKeys.all, 'users'] as const,
  organizations: () => [...adminKeys.all, 'organizations'] as const,
};

export const adminUsersQuery = () =>
  queryOptions({
    queryKey: adminKeys.users(),
    queryFn: ({ signal }) =>
      api<TUser[]>('/api/users/', { signal, query: { skip: 0, limit: MAX_PAGE_SIZE } }),
  });

export const adminOrganizationsQuery = () =>
  queryOptions({
    queryKey: adminKeys.organizations(),
    queryFn: ({ signal }) => api<TOrganization[]>('/api/organizations', { signal }),
  });

export function useAdminUsers() {
  return useQuery(adminUsersQuery());
}

export function useAdminOrganizations() {
  return useQuery(adminOrganizationsQuery());
}

function useInvalidateUsers() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: adminKeys.all }),
      // The admin may have changed their own record, or an organization's member list.
      queryClient.invalidateQueries({ queryKey: currentUserKey }),
      queryClient.invalidateQueries({ queryKey: ['organizations'] }),
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
