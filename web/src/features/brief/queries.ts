import type { TBrief } from '@cc/contract';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../lib/api';

/** The Brief page's and the dashboard card's reads: one root, so a new brief refreshes both. */
export const briefKeys = {
  all: ['briefs'] as const,
  list: (limit: number) => [...briefKeys.all, 'list', limit] as const,
  one: (id: string) => [...briefKeys.all, 'one', id] as const,
};

/** The history shown beside a brief (newest first). */
export const BRIEF_HISTORY_LIMIT = 30;

export const briefsQuery = (limit = BRIEF_HISTORY_LIMIT) =>
  queryOptions({
    queryKey: briefKeys.list(limit),
    queryFn: ({ signal }) => api<TBrief[]>('/api/briefs/', { signal, query: { limit } }),
  });

export const briefQuery = (id: string) =>
  queryOptions({
    queryKey: briefKeys.one(id),
    queryFn: ({ signal }) => api<TBrief>(`/api/briefs/${encodeURIComponent(id)}`, { signal }),
  });

/** The dashboard card's read: the newest brief only. */
export const todaysBriefQuery = () => briefsQuery(1);
