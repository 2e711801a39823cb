import { ChevronDown, ChevronUp, Pencil, Trash2 } from 'lucide-react';
import { useId, useState } from 'react';
import { Markdown } from '../../../components/markdown/markdown';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { cn } from '../../../lib/utils';
import type { NoteEntry } from '../api';
import { formatTime } from '../../../lib/format';

/** Long enough that three lines may not show it all. */
function mayOverflow(content: string): boolean {
  return content.trim().split('\n').length > 3 || content.length > 220;
}

const timeOf = (iso: string) => formatTime(iso);

/** One entry: three lines when collapsed (spec section 9), expandable. */
export function NoteCard({
  entry,
  onEdit,
  onDelete,
}: {
  entry: NoteEntry;
  onEdit: () => void;
  onDelete: () => void;
}) {
  const [expanded, setExpanded] = useState(false);
  const bodyId = useId();
  const long = mayOverflow(entry.content);
  const edited = entry.updated_at !== entry.created_at;

  return (
    <Card className="group flex flex-col gap-3 p-4 sm:p-5">
      <div
        id={bodyId}
        data-testid="note-content"
        className={cn('min-w-0 text-sm break-words', !expanded && 'line-clamp-3')}
      >
        <Markdown content={entry.content} />
      </div>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div className="flex items-center gap-3 text-xs text-muted-foreground">
          {timeOf(entry.created_at) ? <span>Written {timeOf(entry.created_at)}</span> : null}
          {edited ? <span>· edited</span> : null}
          {long ? (
            <button
              type="button"
              aria-expanded={expanded}
              aria-controls={bodyId}
              onClick={() => setExpanded((v) => !v)}
              className="inline-flex items-center gap-1 rounded font-medium text-primary hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
            >
              {expanded ? (
                <>
                  Show Less <ChevronUp className="size-3.5" aria-hidden="true" />
                </>
              ) : (
                <>
                  Show More <ChevronDown className="size-3.5" aria-hidden="true" />
                </>
              )}
            </button>
          ) : null}
        </div>
        <div className="flex gap-1">
          <Button variant="ghost" size="sm" onClick={onEdit} aria-label={`Edit entry of ${entry.entry_date}`}>
            <Pencil aria-hidden="true" />
            Edit
          </Button>
          <Button
            variant="ghost"
            size="sm"
            className="text-danger-text"
            onClick={onDelete}
            aria-label={`Delete entry of ${entry.entry_date}`}
          >
            <Trash2 aria-hidden="true" />
            Delete
          </Button>
        </div>
      </div>
    </Card>
  );
}
