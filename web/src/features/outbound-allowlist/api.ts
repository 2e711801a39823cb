import type { TOutboundAllowlist, TOutboundAllowlistRequest } from '@cc/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api';

/** Super Admin → Outbound calls. A 403 here means "not the platform admin", never an ended session. */
const quiet = { skipSessionRule: true } as const;
const PATH = '/api/admin/outbound-allowlist';

export const outboundAllowlistKeys = { all: ['outbound-allowlist'] as const };

export const outboundAllowlistQuery = () =>
  queryOptions({
    queryKey: outboundAllowlistKeys.all,
    queryFn: ({ signal }) => api<TOutboundAllowlist>(PATH, { ...quiet, signal }),
  });

export function useOutboundAllowlist() {
  return useQuery(outboundAllowlistQuery());
}

/** PUT replaces the whole list: callers send every entry they keep plus any new one. */
export function useSaveOutboundAllowlist() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: TOutboundAllowlistRequest) =>
      api<TOutboundAllowlist>(PATH, { ...quiet, method: 'PUT', json: body }),
    onSuccess: (saved) => qc.setQueryData(outboundAllowlistKeys.all, saved),
  });
}

type Entry = TOutboundAllowlist['entries'][number];

/** The entries as the PUT takes them (the server keeps each kept entry's own date). */
export const asRequestEntries = (entries: readonly Entry[]) =>
  entries.map(({ method, destination, note }) => ({ method, destination, note }));
