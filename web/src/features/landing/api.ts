import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api';

export interface PublicConfig {
  contact_email: string;
}

export const landingKeys = {
  publicConfig: ['public-config'] as const,
};

export const publicConfigQuery = () =>
  queryOptions({
    queryKey: landingKeys.publicConfig,
    queryFn: ({ signal }) => api<PublicConfig>('/api/public-config', { signal, anonymous: true }),
    staleTime: 60 * 60 * 1000,
  });

export function usePublicConfig() {
  return useQuery(publicConfigQuery());
}
