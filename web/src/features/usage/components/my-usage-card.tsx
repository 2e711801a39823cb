import { type FormEvent, useEffect, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Input } from '../../../components/ui/input';
import { Skeleton } from '../../../components/ui/skeleton';
import { serverDetail } from '../../../lib/api';
import { notify } from '../../../lib/toast';
import { useMyUsage, useSetRunThreshold } from '../api';
import { usd } from '../money';
import { ChargedOrganizationField } from './charged-organization-field';
import { UsageTable } from './usage-table';

/** Profile: the person's own AI usage this month, their remaining budget and their run threshold. */
export function MyUsageCard() {
  const me = useMyUsage();
  const setThreshold = useSetRunThreshold();
  const [threshold, setValue] = useState('');
  const current = me.data?.run_confirm_usd;
  useEffect(() => {
    if (current !== undefined) setValue(String(current));
  }, [current]);

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const amount = Number(threshold);
    if (!Number.isFinite(amount) || amount < 0) {
      notify.error('Invalid Amount', 'Enter an amount in dollars.');
      return;
    }
    setThreshold.mutate(amount, {
      onSuccess: () => notify.success('Saved', 'Run confirmation threshold updated.'),
      onError: (err) => notify.error('Save Failed', serverDetail(err) ?? 'Could not save.'),
    });
  };

  return (
    <Card className="flex flex-col gap-4 p-4 sm:p-5" aria-labelledby="my-usage-title">
      <h2 id="my-usage-title" className="font-semibold text-lg">
        Your AI usage
      </h2>
      {me.isPending ? (
        <Skeleton className="h-24 w-full" />
      ) : me.isError ? (
        <p className="text-muted-foreground text-sm">Your usage could not be loaded.</p>
      ) : (
        <>
          <p className="text-sm" data-testid="my-usage-total">
            This month: {usd(me.data.total.cost_usd)} in {me.data.total.calls} model calls.
          </p>
          <p className="text-sm" data-testid="my-budget">
            {me.data.budget.monthly_usd === null
              ? 'No monthly AI budget applies to you.'
              : `Remaining budget: ${usd(me.data.budget.remaining_usd)} of ${usd(me.data.budget.monthly_usd)} (resets on ${me.data.budget.resets_on}).`}
          </p>
          <ChargedOrganizationField current={me.data.charged_organization_id} />
          <UsageTable title="By feature" rows={me.data.by_feature} />
          <form onSubmit={onSubmit} className="flex flex-wrap items-end gap-2">
            <div className="flex flex-col gap-1">
              <label htmlFor="run-threshold" className="text-muted-foreground text-xs">
                Ask me to confirm runs estimated above (USD)
              </label>
              <Input
                id="run-threshold"
                inputMode="decimal"
                value={threshold}
                onChange={(e) => setValue(e.target.value)}
                className="h-9 w-32"
              />
            </div>
            <Button type="submit" size="sm" variant="outline" disabled={setThreshold.isPending}>
              Save
            </Button>
          </form>
        </>
      )}
    </Card>
  );
}
