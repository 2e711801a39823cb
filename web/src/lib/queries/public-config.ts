import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../api';

/** GET /api/public-config: what the public pages need (the landing footer, the login page's single sign-on). */
export interface PublicConfig {
  contact_email: string;
  /** Present when single sign-on is configured. */
  oidc?: { label: string; start_url: string };
}

const publicConfigKey = ['public-config'] as const;

export const publicConfigQuery = () =>
  queryOptions({
    queryKey: publicConfigKey,
    queryFn: ({ signal }) => api<PublicConfig>('/api/public-config', { signal, anonymous: true }),
    staleTime: 60 * 60 * 1000,
  });

export function usePublicConfig() {
  return useQuery(publicConfigQuery());
}
