import { activityActionLabel, FOLDED_ACTIVITY_ACTIONS, type TActivityEntry } from '@cc/contract';
import { Undo2 } from 'lucide-react';
import { Fragment, type ReactElement, useState } from 'react';
import { Badge, type BadgeProps } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { formatDateTime } from '../../../lib/format';

/** Where an entry came from, in words: the AI, a run, the web app or another API client. */
export function viaLabel(via: string): { label: string; variant: BadgeProps['variant'] } {
  if (via === 'ai') return { label: 'AI', variant: 'info' };
  if (via.startsWith('run:')) return { label: 'Run', variant: 'info' };
  if (via === 'ui') return { label: 'Web app', variant: 'outline' };
  return { label: 'API', variant: 'outline' };
}

const when = (ts: string) => formatDateTime(ts);

interface ActivityListProps {
  entries: TActivityEntry[];
  /** Show who acted (the admin's view of everyone's entries). */
  showActor?: boolean;
  /** The entry being undone (its button waits). */
  undoingId: string | null;
  onUndo: (entry: TActivityEntry) => void;
}

type Row = { kind: 'entry'; entry: TActivityEntry } | { kind: 'fold'; entries: TActivityEntry[] };

/** Consecutive sign-ins of one person become one row: they are many and alike, and hid the changes. */
export function foldEntries(entries: TActivityEntry[]): Row[] {
  const rows: Row[] = [];
  for (const e of entries) {
    const last = rows[rows.length - 1];
    const foldable = FOLDED_ACTIVITY_ACTIONS.has(e.action);
    if (
      foldable &&
      last?.kind === 'fold' &&
      last.entries[0].action === e.action &&
      last.entries[0].actor_user_id === e.actor_user_id
    ) {
      last.entries.push(e);
    } else rows.push(foldable ? { kind: 'fold', entries: [e] } : { kind: 'entry', entry: e });
  }
  return rows;
}

/** A run of folded entries: one line with the count and the span, opened on demand. */
function FoldedRow({
  entries,
  showActor,
  render,
}: {
  entries: TActivityEntry[];
  showActor: boolean;
  render: (e: TActivityEntry) => ReactElement;
}) {
  const [open, setOpen] = useState(false);
  if (entries.length === 1) return render(entries[0]);
  const newest = entries[0];
  const oldest = entries[entries.length - 1];
  const label = activityActionLabel(newest.action);
  return (
    <>
      <li className="flex flex-wrap items-center justify-between gap-3 py-3" data-testid="activity-fold">
        <div className="flex min-w-0 flex-col gap-1">
          <p className="text-sm font-medium">
            {label} {entries.length} times
            {showActor ? ` (${newest.actor_name ?? newest.actor_user_id ?? 'unknown'})` : ''}
          </p>
          <p className="text-xs text-muted-foreground">
            <time dateTime={oldest.ts}>{when(oldest.ts)}</time> –{' '}
            <time dateTime={newest.ts}>{when(newest.ts)}</time>
          </p>
        </div>
        <Button variant="ghost" size="sm" aria-expanded={open} onClick={() => setOpen((o) => !o)}>
          {open ? 'Hide' : 'Show all'}
        </Button>
      </li>
      {open ? entries.map((e) => <Fragment key={e.id}>{render(e)}</Fragment>) : null}
    </>
  );
}

/** The ledger's entries, newest first, with Undo where the caller may take the change back. */
export function ActivityList({ entries, showActor = false, undoingId, onUndo }: ActivityListProps) {
  const render = (e: TActivityEntry) => {
    const via = viaLabel(e.via);
    return (
      <li
        key={e.id}
        className="flex flex-wrap items-start justify-between gap-3 py-3"
        data-testid="activity-entry"
      >
        <div className="flex min-w-0 flex-col gap-1">
          <p className="text-sm font-medium break-words">{e.summary}</p>
          <p className="flex flex-wrap items-center gap-2 text-xs text-muted-foreground">
            <time dateTime={e.ts}>{when(e.ts)}</time>
            <Badge variant={via.variant}>{via.label}</Badge>
            <span>{activityActionLabel(e.action)}</span>
            {showActor ? <span>by {e.actor_name ?? e.actor_user_id ?? 'unknown'}</span> : null}
            {e.undone ? <Badge variant="secondary">Undone</Badge> : null}
          </p>
        </div>
        {e.can_undo ? (
          <Button
            variant="outline"
            size="sm"
            onClick={() => onUndo(e)}
            disabled={undoingId !== null}
            aria-label={`Undo: ${e.summary}`}
          >
            <Undo2 aria-hidden="true" />
            {undoingId === e.id ? 'Undoing…' : 'Undo'}
          </Button>
        ) : null}
      </li>
    );
  };
  return (
    <ul className="flex flex-col divide-y divide-border" aria-label="Activity entries">
      {foldEntries(entries).map((row) =>
        row.kind === 'entry' ? (
          <Fragment key={row.entry.id}>{render(row.entry)}</Fragment>
        ) : (
          <FoldedRow key={row.entries[0].id} entries={row.entries} showActor={showActor} render={render} />
        ),
      )}
    </ul>
  );
}
