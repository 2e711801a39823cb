import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { myUsageQuery, usageKeys } from '../api';
import { LOW_SHARE, usd } from '../money';

/**
 * Above the chat box: what is left of the person's monthly AI budget, only once under 20 %. Refreshed
 * when a reply ends (the turn has just spent some).
 */
export function BudgetHint({ replying }: { replying: boolean }) {
  // Fresh on every conversation opened: a budget may have been set or spent elsewhere meanwhile.
  const me = useQuery({ ...myUsageQuery(), refetchOnMount: 'always' });
  const qc = useQueryClient();
  const was = useRef(replying);
  useEffect(() => {
    if (was.current && !replying) void qc.invalidateQueries({ queryKey: usageKeys.me() });
    was.current = replying;
  }, [replying, qc]);
  const b = me.data?.budget;
  if (!b || b.monthly_usd === null || b.remaining_usd === null) return null;
  if (b.monthly_usd > 0 && b.remaining_usd >= b.monthly_usd * LOW_SHARE) return null;
  return (
    <p className="text-muted-foreground text-xs" data-testid="budget-hint" role="status">
      AI budget left this month: {usd(b.remaining_usd)} of {usd(b.monthly_usd)}.
    </p>
  );
}
