import type { TGoal, TKpi } from '@cc/contract';
import { RecordReadDialog } from '../../../components/record-read-dialog';
import { formatDay } from '../../../lib/format';
import { GoalStatusBadge } from './goal-status';

const kpiLine = (k: TKpi) => {
  const unit = k.unit ? ` ${k.unit}` : '';
  const target = k.target_value === null ? '' : ` of ${k.target_value}${unit}`;
  const checked = k.last_checkin_date ? ` · checked in ${formatDay(k.last_checkin_date)}` : '';
  return `${k.current_value}${target === '' ? unit : ''}${target}${checked}`;
};

/**
 * A linked goal (a citation, a KPI's citation), shown to read; Edit opens the goal dialog. Its own
 * component, so the goal dialog (edited elsewhere) stays as it is.
 */
export function GoalReadDialog({
  goal,
  onClose,
  onEdit,
}: {
  goal: TGoal | null;
  onClose: () => void;
  onEdit: (goal: TGoal) => void;
}) {
  return (
    <RecordReadDialog
      open={goal !== null}
      onOpenChange={(open) => !open && onClose()}
      kind="Goal"
      title={goal?.title ?? ''}
      fields={
        goal
          ? [
              { label: 'Status', value: <GoalStatusBadge status={goal.status} /> },
              { label: 'Due date', value: formatDay(goal.due_date) },
              { label: 'Progress', value: `${Math.round(goal.progress)}%` },
              { label: 'Organization', value: goal.organization_name ?? 'Personal' },
              ...goal.kpis.map((k) => ({ label: k.name, value: kpiLine(k) })),
            ]
          : []
      }
      body={goal?.description}
      onEdit={goal?.can_edit ? () => onEdit(goal) : undefined}
    />
  );
}
