import type { TOutboundAllowlist } from '@cc/contract';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Skeleton } from '../../../components/ui/skeleton';
import { Alert } from '../../../components/ui/alert';
import { serverDetail } from '../../../lib/api';
import { formatDate } from '../../../lib/format';
import { notify } from '../../../lib/toast';
import { asRequestEntries, useOutboundAllowlist, useSaveOutboundAllowlist } from '../api';
import { AddOutboundEntryForm } from './add-outbound-entry-form';

type Entry = TOutboundAllowlist['entries'][number];

/**
 * Super Admin → Outbound calls (issue 46 row 5): the methods and destinations a model-chosen call may
 * reach without a person's approval. The server keeps the list; every change sends it whole (PUT).
 */
export function OutboundAllowlistCard() {
  const list = useOutboundAllowlist();
  return (
    <Card role="region" className="flex flex-col gap-5 p-4 sm:p-5" aria-labelledby="outbound-allowlist-title">
      <h2 id="outbound-allowlist-title" className="font-semibold text-lg">
        Side-effect-free destinations
      </h2>
      <p className="text-muted-foreground text-sm">
        Calls an AI tool makes with arguments a model chose wait for a person's approval unless their method
        and destination are listed here as side-effect-free.
      </p>
      {list.isPending ? (
        <Skeleton className="h-24 w-full" />
      ) : list.isError ? (
        <Alert>{serverDetail(list.error) ?? 'The list could not be loaded.'}</Alert>
      ) : (
        <>
          <EntriesTable entries={list.data.entries} />
          <AddOutboundEntryForm entries={list.data.entries} />
        </>
      )}
    </Card>
  );
}

function EntriesTable({ entries }: { entries: Entry[] }) {
  const save = useSaveOutboundAllowlist();
  if (entries.length === 0)
    return (
      <p className="text-muted-foreground text-sm" data-testid="outbound-allowlist-empty">
        Nothing is listed: every model-chosen call waits for approval.
      </p>
    );
  const remove = (gone: Entry) =>
    save.mutate(
      { entries: asRequestEntries(entries.filter((e) => e !== gone)) },
      {
        onSuccess: () =>
          notify.success(
            'Outbound Calls Saved',
            `${gone.method} ${gone.destination} now waits for approval.`,
          ),
        onError: (err) =>
          notify.error('Remove Failed', serverDetail(err) ?? 'Could not remove the destination.'),
      },
    );
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-sm">
        <caption className="sr-only">Side-effect-free methods and destinations</caption>
        <thead>
          <tr className="text-left text-muted-foreground">
            <th className="py-1 pr-3 font-medium">Method</th>
            <th className="py-1 pr-3 font-medium">Destination</th>
            <th className="py-1 pr-3 font-medium">Note</th>
            <th className="py-1 pr-3 font-medium">Added</th>
            <th className="py-1 font-medium">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {entries.map((e) => (
            <tr
              key={`${e.method} ${e.destination}`}
              className="border-t"
              data-testid="outbound-allowlist-row"
            >
              <td className="py-2 pr-3 font-mono">{e.method}</td>
              <td className="break-all py-2 pr-3">{e.destination}</td>
              <td className="py-2 pr-3">{e.note ?? '—'}</td>
              <td className="whitespace-nowrap py-2 pr-3">{formatDate(e.created_at)}</td>
              <td className="py-2 text-right">
                <Button
                  variant="outline"
                  size="sm"
                  disabled={save.isPending}
                  aria-label={`Remove ${e.method} ${e.destination}`}
                  onClick={() => remove(e)}
                >
                  Remove
                </Button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
