import type { TRunEstimate } from '@cc/contract';
import { ConfirmDialog } from '../../../components/confirm-dialog';

/** Asks before starting a run whose estimated cost is above the person's threshold (spend governance). */
export function RunCostConfirm({
  pending,
  onConfirm,
  onCancel,
}: {
  pending: { name: string; estimate: TRunEstimate } | null;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  return (
    <ConfirmDialog
      open={pending !== null}
      onOpenChange={(o) => {
        if (!o) onCancel();
      }}
      title="Confirm the run's cost"
      description={
        pending
          ? `Starting “${pending.name}” is estimated to cost $${pending.estimate.estimated_usd.toFixed(2)}, above your $${pending.estimate.threshold_usd.toFixed(2)} threshold. Start it?`
          : ''
      }
      confirmLabel="Start run"
      onConfirm={onConfirm}
    />
  );
}
