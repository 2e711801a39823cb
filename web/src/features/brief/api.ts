import type { TBrief } from '@cc/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api';
import { briefKeys, briefQuery, briefsQuery } from './queries';

export { BRIEF_HISTORY_LIMIT, briefKeys, briefQuery, briefsQuery, todaysBriefQuery } from './queries';

export const useBriefs = (limit?: number) => useQuery(briefsQuery(limit));
export const useBrief = (id: string | null) => useQuery({ ...briefQuery(id ?? ''), enabled: id !== null });

/** Generate brief now: the new brief goes on top of the history. */
export function useGenerateBrief() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => api<TBrief>('/api/briefs/generate', { method: 'POST' }),
    onSuccess: (brief) => {
      qc.setQueryData(briefKeys.one(brief.id), brief);
      void qc.invalidateQueries({ queryKey: briefKeys.all });
    },
  });
}
