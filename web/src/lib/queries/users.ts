import type { TAssignableUser } from '@cc/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../api';

/**
 * The other app users the caller may assign tasks to or message (GET /api/contacts/assignable),
 * shared by Tasks, task suggestions and Comms. Under 'users' (beside the current user, ['users', 'me']):
 * account and membership changes invalidate `all`; the contact directory's changes do not concern it.
 */
export const userKeys = {
  all: ['users'] as const,
  assignable: () => [...userKeys.all, 'assignable'] as const,
};

export const fetchAssignableUsers = (signal?: AbortSignal) =>
  api<TAssignableUser[]>('/api/contacts/assignable', { signal });

/** A failed load is an empty list (spec section 8): the screens still work with "Me" only. */
export const assignableUsersQuery = () =>
  queryOptions({
    queryKey: userKeys.assignable(),
    queryFn: ({ signal }) => fetchAssignableUsers(signal).catch((): TAssignableUser[] => []),
  });

export function useAssignableUsers(enabled = true) {
  return useQuery({ ...assignableUsersQuery(), enabled });
}
