import type { TOrganization } from '@cc/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../api';

/**
 * GET /api/organizations: the caller's organizations with their rights (`can_manage`, `can_edit`,
 * `my_access_level`). One cached list for the Organization page, the admin, and every sharing control
 * (tasks, contacts, files, goals); changes to organizations or memberships invalidate `all`.
 */
export const organizationKeys = {
  all: ['organizations'] as const,
  list: () => [...organizationKeys.all, 'list'] as const,
};

export const organizationsQuery = () =>
  queryOptions({
    queryKey: organizationKeys.list(),
    queryFn: ({ signal }) => api<TOrganization[]>('/api/organizations', { signal }),
  });

export function useOrganizations() {
  return useQuery(organizationsQuery());
}
