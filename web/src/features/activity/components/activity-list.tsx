import type { TActivityEntry } from '@cc/contract';
import { Undo2 } from 'lucide-react';
import { Badge, type BadgeProps } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';

/** Where an entry came from, in words: the AI, a run, the web app or another API client. */
export function viaLabel(via: string): { label: string; variant: BadgeProps['variant'] } {
  if (via === 'ai') return { label: 'AI', variant: 'info' };
  if (via.startsWith('run:')) return { label: 'Run', variant: 'info' };
  if (via === 'ui') return { label: 'Web app', variant: 'outline' };
  return { label: 'API', variant: 'outline' };
}

const timeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const when = (ts: string) => {
  const d = new Date(ts);
  return Number.isNaN(d.getTime()) ? ts : timeFormat.format(d);
};

interface ActivityListProps {
  entries: TActivityEntry[];
  /** Show who acted (the admin's view of everyone's entries). */
  showActor?: boolean;
  /** The entry being undone (its button waits). */
  undoingId: string | null;
  onUndo: (entry: TActivityEntry) => void;
}

/** The ledger's entries, newest first, with Undo where the caller may take the change back. */
export function ActivityList({ entries, showActor = false, undoingId, onUndo }: ActivityListProps) {
  return (
    <ul className="flex flex-col divide-y divide-border" aria-label="Activity entries">
      {entries.map((e) => {
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
                <span className="font-mono">{e.action}</span>
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
      })}
    </ul>
  );
}
