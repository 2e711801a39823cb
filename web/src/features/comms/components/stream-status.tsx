import type { StreamStatus } from '../../../lib/event-stream';
import { cn } from '../../../lib/utils';

const LABELS: Record<StreamStatus, string> = {
  connecting: 'connecting',
  open: 'live',
  closed: 'closed',
  error: 'reconnecting',
};

/** The live stream's status (connecting, open, closed, error) as a small dot and word. */
export function StreamStatusBadge({ status }: { status: StreamStatus }) {
  return (
    <span
      role="status"
      data-testid="comms-stream-status"
      data-status={status}
      title={`Live updates: ${status}`}
      className="flex shrink-0 items-center gap-1.5 rounded-full border border-border px-2 py-0.5 text-[11px] text-muted-foreground"
    >
      <span
        aria-hidden="true"
        className={cn(
          'size-2 rounded-full',
          status === 'open' && 'bg-emerald-400',
          status === 'connecting' && 'animate-pulse bg-amber-400',
          status === 'error' && 'bg-red-500',
          status === 'closed' && 'bg-muted-foreground',
        )}
      />
      <span className="hidden sm:inline">{LABELS[status]}</span>
      <span className="sr-only sm:hidden">{`Live updates: ${LABELS[status]}`}</span>
    </span>
  );
}
