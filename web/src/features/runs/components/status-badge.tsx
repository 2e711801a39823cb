import { Badge } from '../../../components/ui/badge';
import type { RunKind } from '../api';
import { type RunStatus, statusLabel } from '../run-state';

const variantOf = (s: RunStatus) =>
  s === 'completed'
    ? 'success'
    : s === 'failed'
      ? 'danger'
      : s === 'awaiting_human_input' || s === 'paused'
        ? 'warning'
        : 'info';

/** "Crew: Inactive" when nothing runs, else the run's kind and status ("Crew: Running", "Flow: Paused"). */
export function RunStatusBadge({ kind, status }: { kind: RunKind | null; status: RunStatus | null }) {
  return (
    <Badge variant={status ? variantOf(status) : 'outline'} data-testid="run-status" aria-live="polite">
      {status ? `${kind === 'flow' ? 'Flow' : 'Crew'}: ${statusLabel(status)}` : 'Crew: Inactive'}
    </Badge>
  );
}
