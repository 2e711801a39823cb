import { type FormEvent, useEffect, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { serverDetail } from '../../../lib/api';
import { notify } from '../../../lib/toast';
import { useBudget, useSetBudget } from '../api';
import { usd } from '../money';

/**
 * A monthly budget edited in place: the amount (blank: no budget), what this month used and what is
 * left. For an organization, or for one of its members when `userId` is given.
 */
export function BudgetEditor({ orgId, userId, label }: { orgId: string; userId?: string; label: string }) {
  const budget = useBudget(orgId, userId);
  const save = useSetBudget(orgId, userId);
  const [value, setValue] = useState('');
  const current = budget.data?.monthly_usd ?? null;
  useEffect(() => {
    setValue(current === null ? '' : String(current));
  }, [current]);

  if (budget.isPending) return <span className="text-muted-foreground text-xs">…</span>;
  if (budget.isError) return <span className="text-muted-foreground text-xs">—</span>;
  const b = budget.data;
  const id = `budget-${orgId}-${userId ?? 'org'}`;
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const trimmed = value.trim();
    const amount = trimmed === '' ? null : Number(trimmed);
    if (amount !== null && (!Number.isFinite(amount) || amount < 0)) {
      notify.error('Invalid Budget', 'Enter an amount in dollars, or leave it blank for no budget.');
      return;
    }
    save.mutate(amount, {
      onSuccess: () => notify.success('Budget Saved', label),
      onError: (err) => notify.error('Save Failed', serverDetail(err) ?? 'Could not save the budget.'),
    });
  };
  return (
    <form onSubmit={onSubmit} className="flex flex-wrap items-center gap-2">
      <label htmlFor={id} className="sr-only">
        Monthly budget for {label} (USD)
      </label>
      <Input
        id={id}
        inputMode="decimal"
        placeholder="No budget"
        value={value}
        onChange={(e) => setValue(e.target.value)}
        className="h-8 w-28"
      />
      <Button type="submit" size="sm" variant="outline" disabled={save.isPending}>
        Save
      </Button>
      <span className="text-muted-foreground text-xs">
        {b.monthly_usd === null
          ? `${usd(b.used_usd)} used`
          : `${usd(b.used_usd)} of ${usd(b.monthly_usd)} used · ${usd(b.remaining_usd)} left`}
      </span>
    </form>
  );
}
