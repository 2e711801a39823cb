import type {
  TBudget,
  TModelPrices,
  TModelPriceTable,
  TMyUsage,
  TRunEstimate,
  TUsageGroup,
  TUsageSummary,
} from '@cc/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api';
import { modelKeys } from '../../lib/queries/models';

/**
 * Spend governance: usage summaries, budgets and the caller's own usage. Calls skip the session rule
 * (a 403 here means "not an administrator of this", never an ended session).
 */
const quiet = { skipSessionRule: true } as const;

export interface UsageRange {
  since: string;
  until: string;
  organizationId?: string;
}

export const usageKeys = {
  all: ['usage'] as const,
  summary: (group: TUsageGroup, r: UsageRange) => [...usageKeys.all, 'summary', group, r] as const,
  me: () => [...usageKeys.all, 'me'] as const,
  budget: (orgId: string, userId?: string) => [...usageKeys.all, 'budget', orgId, userId ?? null] as const,
  /** Under the models root: a change of provider or offer (Super Admin → Models) refreshes the table. */
  prices: () => [...modelKeys.all, 'prices'] as const,
};

const rangeQuery = (r: UsageRange) => ({ since: r.since, until: r.until, organization_id: r.organizationId });

export function useUsageSummary(group: TUsageGroup, r: UsageRange) {
  return useQuery(
    queryOptions({
      queryKey: usageKeys.summary(group, r),
      queryFn: ({ signal }) =>
        api<TUsageSummary>('/api/usage/summary', {
          ...quiet,
          signal,
          query: { group_by: group, ...rangeQuery(r) },
        }),
    }),
  );
}

export const myUsageQuery = () =>
  queryOptions({
    queryKey: usageKeys.me(),
    queryFn: ({ signal }) => api<TMyUsage>('/api/users/me/usage', { ...quiet, signal }),
    staleTime: 30_000,
  });

export function useMyUsage() {
  return useQuery(myUsageQuery());
}

const budgetPath = (orgId: string, userId?: string) =>
  userId ? `/api/organizations/${orgId}/users/${userId}/budget` : `/api/organizations/${orgId}/budget`;

export function useBudget(orgId: string, userId?: string) {
  return useQuery({
    queryKey: usageKeys.budget(orgId, userId),
    queryFn: ({ signal }) => api<TBudget>(budgetPath(orgId, userId), { ...quiet, signal }),
  });
}

export function useSetBudget(orgId: string, userId?: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (monthly_usd: number | null) =>
      api<TBudget>(budgetPath(orgId, userId), { ...quiet, method: 'PUT', json: { monthly_usd } }),
    onSuccess: (b) => {
      qc.setQueryData(usageKeys.budget(orgId, userId), b);
      void qc.invalidateQueries({ queryKey: usageKeys.me() });
    },
  });
}

export function useSetRunThreshold() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (run_confirm_usd: number | null) =>
      api<{ run_confirm_usd: number }>('/api/users/me/run-threshold', {
        ...quiet,
        method: 'PUT',
        json: { run_confirm_usd },
      }),
    onSuccess: () => qc.invalidateQueries({ queryKey: usageKeys.me() }),
  });
}

export const runEstimate = (kind: 'crews' | 'flows', id: string) =>
  api<TRunEstimate>(`/api/${kind}/${encodeURIComponent(id)}/estimate`, quiet);

/** Downloads the range's calls as a CSV file. */
export async function downloadUsageCsv(r: UsageRange): Promise<void> {
  const csv = await api<string>('/api/usage/export', {
    ...quiet,
    query: { format: 'csv', ...rangeQuery(r) },
  });
  const blob = new Blob([typeof csv === 'string' ? csv : ''], { type: 'text/csv' });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = `usage-${r.since}-${r.until}.csv`;
  a.click();
  URL.revokeObjectURL(url);
}

/** Super Admin: the model price table, the offered endpoint models and the default price. */
export function useModelPrices() {
  return useQuery({
    queryKey: usageKeys.prices(),
    queryFn: ({ signal }) => api<TModelPriceTable>('/api/admin/model-prices', { ...quiet, signal }),
  });
}

export function useSaveModelPrices() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: TModelPrices) =>
      api<TModelPriceTable>('/api/admin/model-prices', { ...quiet, method: 'PUT', json: body }),
    onSuccess: (table) => {
      qc.setQueryData(usageKeys.prices(), table);
      // The models members may pick follow the offer.
      void qc.invalidateQueries({ queryKey: modelKeys.all });
    },
  });
}

/** Profile: the organization the caller's model calls are charged to (one of theirs). */
export function useSetChargedOrganization() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (organization_id: string) =>
      api<{ organization_id: string }>('/api/users/me/primary-organization', {
        ...quiet,
        method: 'PUT',
        json: { organization_id },
      }),
    onSuccess: () => qc.invalidateQueries({ queryKey: usageKeys.me() }),
  });
}
