import { Download } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Input } from '../../../components/ui/input';
import { Skeleton } from '../../../components/ui/skeleton';
import { serverDetail } from '../../../lib/api';
import { notify } from '../../../lib/toast';
import { downloadUsageCsv, useBudget, useUsageSummary } from '../api';
import { currentMonth, monthBounds, usd, usedShare, WARN_SHARE } from '../money';
import { BudgetEditor } from './budget-editor';
import { UsageTable } from './usage-table';

// The chart is its own chunk, fetched only when this tab is opened.
const SpendChart = lazy(() => import('./spend-chart'));

/** The 80 % warning of one budget, shown on the usage screen (docs/decisions/, 2026-11-24). */
function BudgetWarning({ orgId, name }: { orgId: string; name: string }) {
  const b = useBudget(orgId).data;
  const share = b ? usedShare(b) : null;
  if (!b || share === null || share < WARN_SHARE) return null;
  return (
    <Alert role="alert">
      {name} has used {Math.round(share * 100)}% of its monthly AI budget ({usd(b.used_usd)} of{' '}
      {usd(b.monthly_usd)}).
    </Alert>
  );
}

/**
 * Usage & spend: spend per day, then tables by person, organization, model and feature for a chosen
 * month, a CSV export and budgets edited in place. Without `organization` it is the platform's (Super
 * Admin); with one, that organization's (its admins).
 */
export function UsageSpendPanel({ organization }: { organization?: { id: string; name: string } }) {
  const [month, setMonth] = useState(currentMonth);
  const range = { ...monthBounds(month), organizationId: organization?.id };
  const days = useUsageSummary('day', range);
  const people = useUsageSummary('user', range);
  const orgs = useUsageSummary('organization', range);
  const models = useUsageSummary('model', range);
  const features = useUsageSummary('feature', range);
  const [exporting, setExporting] = useState(false);

  const onExport = async () => {
    setExporting(true);
    try {
      await downloadUsageCsv(range);
    } catch (err) {
      notify.error('Export Failed', serverDetail(err) ?? 'Could not export the usage.');
    } finally {
      setExporting(false);
    }
  };

  if (days.isError) return <Alert>{serverDetail(days.error) ?? 'The usage could not be loaded.'}</Alert>;
  const total = days.data?.total;
  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-col gap-1">
        <h2 className="font-semibold text-lg">
          {organization ? `Usage & spend of ${organization.name}` : 'Usage & spend'}
        </h2>
        <p className="text-muted-foreground text-sm">
          What the AI cost, by day, person, organization, model and feature, for the month you choose.
        </p>
      </div>
      {organization ? (
        <BudgetWarning orgId={organization.id} name={organization.name} />
      ) : (
        (orgs.data?.rows ?? [])
          .filter((r) => r.key)
          .map((r) => <BudgetWarning key={r.key} orgId={r.key} name={r.label} />)
      )}
      <div className="flex flex-wrap items-end gap-3">
        <div className="flex flex-col gap-1">
          <label htmlFor="usage-month" className="text-muted-foreground text-xs">
            Month
          </label>
          <Input
            id="usage-month"
            type="month"
            value={month}
            onChange={(e) => e.target.value && setMonth(e.target.value)}
            className="h-9 w-44"
          />
        </div>
        <p className="text-sm" data-testid="usage-total">
          {total ? `${usd(total.cost_usd)} · ${total.calls} model calls` : ' '}
        </p>
        <Button variant="outline" size="sm" onClick={() => void onExport()} disabled={exporting}>
          <Download aria-hidden="true" />
          Export CSV
        </Button>
      </div>
      {organization ? (
        <Card className="flex flex-col gap-2 p-4">
          <h3 className="font-semibold text-sm">Monthly budget of {organization.name}</h3>
          <BudgetEditor orgId={organization.id} label={organization.name} />
        </Card>
      ) : null}
      <Card className="flex flex-col gap-2 p-4">
        <h3 className="font-semibold text-sm">Spend per day</h3>
        <figure aria-label="Spend per day" data-testid="spend-chart" className="min-h-[220px]">
          {days.isPending ? (
            <Skeleton className="h-[220px] w-full" />
          ) : (
            <Suspense fallback={<Skeleton className="h-[220px] w-full" />}>
              <SpendChart
                days={days.data.rows.map((r) => ({ day: r.key, cost_usd: r.cost_usd }))}
                since={days.data.since}
                until={days.data.until}
              />
            </Suspense>
          )}
          <figcaption className="sr-only">
            {(days.data?.rows ?? []).map((r) => `${r.key}: ${usd(r.cost_usd)}`).join('; ')}
          </figcaption>
        </figure>
      </Card>
      <Card className="grid gap-6 p-4 lg:grid-cols-2">
        <UsageTable
          title="By person"
          rows={people.data?.rows ?? []}
          extra={
            organization
              ? {
                  header: 'Monthly budget',
                  cell: (r) => <BudgetEditor orgId={organization.id} userId={r.key} label={r.label} />,
                }
              : undefined
          }
        />
        <UsageTable
          title="By organization"
          rows={orgs.data?.rows ?? []}
          extra={
            organization
              ? undefined
              : { header: 'Monthly budget', cell: (r) => <BudgetEditor orgId={r.key} label={r.label} /> }
          }
        />
        <UsageTable title="By model" rows={models.data?.rows ?? []} />
        <UsageTable title="By feature" rows={features.data?.rows ?? []} />
      </Card>
    </div>
  );
}
