import { RefreshCw } from 'lucide-react';
import { useSearchParams } from 'react-router';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card';
import { Skeleton } from '../../../components/ui/skeleton';
import { Spinner } from '../../../components/ui/spinner';
import { notify } from '../../../lib/toast';
import { cn } from '../../../lib/utils';
import { useBrief, useBriefs, useGenerateBrief } from '../api';
import { BriefView } from '../components/brief-view';
import { formatDateTime } from '../../../lib/format';

export const NO_BRIEF_TEXT = 'No brief yet. Generate one now, or turn on the schedule in your profile.';

/** /app/brief: the chosen brief (?id=, else the newest) and the history beside it. */
export default function BriefPage() {
  const [params, setParams] = useSearchParams();
  const briefs = useBriefs();
  const generate = useGenerateBrief();
  const chosen = params.get('id') ?? briefs.data?.[0]?.id ?? null;
  const brief = useBrief(chosen);

  const onGenerate = () =>
    generate.mutate(undefined, {
      onSuccess: (b) => {
        notify.success('Your brief is ready');
        setParams({ id: b.id });
      },
      onError: (err) => notify.error('Could not generate the brief', err.message),
    });

  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
        <h1 className="text-2xl font-semibold tracking-tight">Brief</h1>
        <Button onClick={onGenerate} disabled={generate.isPending} className="w-fit">
          {generate.isPending ? <Spinner /> : <RefreshCw aria-hidden="true" />}
          Generate brief now
        </Button>
      </div>
      <div className="grid gap-6 lg:grid-cols-[1fr_18rem]">
        <Card>
          <CardContent className="pt-6">
            {briefs.isPending || (chosen && brief.isPending) ? (
              <Skeleton className="h-48 w-full" />
            ) : brief.isError ? (
              <Alert>{brief.error.message}</Alert>
            ) : brief.data ? (
              <BriefView brief={brief.data} />
            ) : (
              <p className="text-muted-foreground">{NO_BRIEF_TEXT}</p>
            )}
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>History</CardTitle>
          </CardHeader>
          <CardContent>
            {briefs.isError ? <Alert>{briefs.error.message}</Alert> : null}
            <ul className="flex flex-col gap-1" aria-label="Earlier briefs">
              {(briefs.data ?? []).map((b) => (
                <li key={b.id}>
                  <button
                    type="button"
                    onClick={() => setParams({ id: b.id })}
                    aria-current={b.id === chosen ? 'true' : undefined}
                    className={cn(
                      // Light text on navy, never on the gold accent (1.5:1): the chosen brief is marked by
                      // a surface, a gold edge and weight, each readable (WCAG AA).
                      'w-full rounded-md border-l-2 border-transparent px-2 py-1 text-left text-sm text-foreground hover:bg-muted focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none',
                      b.id === chosen && 'border-primary bg-secondary font-medium',
                    )}
                  >
                    {formatDateTime(b.created_at)}
                    {b.delivery.status === 'not_delivered' ? ' · not delivered' : ''}
                  </button>
                </li>
              ))}
            </ul>
          </CardContent>
        </Card>
      </div>
    </div>
  );
}
