import type { TTask } from '@cc/contract';
import { RecordReadDialog } from '../../../components/record-read-dialog';
import { formatDay } from '../../../lib/format';

interface TaskReadDialogProps {
  task: TTask | null;
  /** Names of the organizations the reader knows, by id (others are counted, not named). */
  orgNames: ReadonlyMap<string, string>;
  goalTitle: (goalId: string) => string | undefined;
  onClose: () => void;
  onEdit: (task: TTask) => void;
}

/** A linked task (a citation, an e-mail), shown to read; Edit opens the task form. */
export function TaskReadDialog({ task, orgNames, goalTitle, onClose, onEdit }: TaskReadDialogProps) {
  const shared = task?.shared_org_ids.map((id) => orgNames.get(id) ?? 'another organization') ?? [];
  return (
    <RecordReadDialog
      open={task !== null}
      onOpenChange={(open) => !open && onClose()}
      kind="Task"
      title={task?.title ?? ''}
      fields={
        task
          ? [
              { label: 'Status', value: task.status },
              { label: 'Priority', value: task.priority },
              { label: 'Due date', value: task.due_date ? formatDay(task.due_date) : 'No due date' },
              { label: 'Assignee', value: task.assigned_to_user?.name ?? 'Unassigned' },
              { label: 'Created by', value: task.created_by_user?.name ?? null },
              { label: 'Goal', value: task.goal_id ? (goalTitle(task.goal_id) ?? 'A goal') : 'None' },
              { label: 'Shared with', value: shared.length ? shared.join(', ') : 'Not shared' },
              { label: 'Notes', value: task.notes },
            ]
          : []
      }
      body={task?.description}
      onEdit={task?.can_edit ? () => onEdit(task) : undefined}
    />
  );
}
