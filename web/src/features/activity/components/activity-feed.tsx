import type { TActivityEntry } from '@cc/contract';
import { useState } from 'react';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Skeleton } from '../../../components/ui/skeleton';
import { serverDetail } from '../../../lib/api';
import { notify } from '../../../lib/toast';
import { type ActivityFilters, useActivity, useUndoActivity } from '../api';
import { ActivityList } from './activity-list';

/** A page of the ledger with Load more and Undo: the user's own trail, or the admin's filtered view. */
export function ActivityFeed({
  scope,
  filters = {},
}: {
  scope: 'mine' | 'admin';
  filters?: ActivityFilters;
}) {
  const list = useActivity(scope, filters);
  const undo = useUndoActivity();
  const [undoingId, setUndoingId] = useState<string | null>(null);
  const entries = list.data?.pages.flatMap((p) => p.items) ?? [];

  const onUndo = (entry: TActivityEntry) => {
    setUndoingId(entry.id);
    undo.mutate(entry, {
      onSuccess: (done) => notify.success('Change undone', done.summary),
      // 409: the record changed since, or the change was undone already; the detail says which.
      onError: (err) => notify.error('Undo failed', serverDetail(err) ?? 'Could not undo this change.'),
      onSettled: () => setUndoingId(null),
    });
  };

  if (list.isPending) {
    return (
      <div className="flex flex-col gap-2" role="status">
        <span className="sr-only">Loading activity…</span>
        {[0, 1, 2, 3].map((i) => (
          <Skeleton key={i} className="h-12" />
        ))}
      </div>
    );
  }
  if (list.isError) return <Alert>Failed to load data</Alert>;
  if (entries.length === 0) {
    return (
      <p className="rounded-md border border-dashed border-border px-4 py-10 text-center text-sm text-muted-foreground">
        No activity yet.
      </p>
    );
  }
  return (
    <div className="flex flex-col gap-3">
      <ActivityList entries={entries} showActor={scope === 'admin'} undoingId={undoingId} onUndo={onUndo} />
      {list.hasNextPage ? (
        <Button
          variant="outline"
          className="self-center"
          onClick={() => list.fetchNextPage()}
          disabled={list.isFetchingNextPage}
        >
          {list.isFetchingNextPage ? 'Loading…' : 'Load more'}
        </Button>
      ) : null}
    </div>
  );
}
