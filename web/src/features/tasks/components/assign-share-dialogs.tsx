import type { TOrganization, TTask } from '@cc/contract';
import { useEffect, useState } from 'react';
import { FormField } from '../../../components/form-field';
import { Button } from '../../../components/ui/button';
import { OrgChecklist } from '../../../components/org-checklist';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '../../../components/ui/dialog';
import { Select } from '../../../components/ui/select';
import { Skeleton } from '../../../components/ui/skeleton';
import { Spinner } from '../../../components/ui/spinner';
import { useTaskShares } from '../api';
import type { Person } from '../../../lib/assignable-people';

interface AssignDialogProps {
  task: TTask | null;
  people: readonly Person[];
  pending: boolean;
  onClose: () => void;
  onAssign: (task: TTask, userId: string | null) => void;
}

export function AssignDialog({ task, people, pending, onClose, onAssign }: AssignDialogProps) {
  const [value, setValue] = useState('');
  useEffect(() => setValue(task?.assigned_to_user_id ?? ''), [task]);
  // The current assignee may no longer be among the assignable people: keep them selectable.
  const options =
    task?.assigned_to_user && !people.some((p) => p.id === task.assigned_to_user?.id)
      ? [...people, { id: task.assigned_to_user.id, label: task.assigned_to_user.name }]
      : people;
  return (
    <Dialog open={task !== null} onOpenChange={(open) => !open && !pending && onClose()}>
      <DialogContent className="max-w-md">
        <DialogHeader>
          <DialogTitle>Assign task</DialogTitle>
          <DialogDescription>{task?.title}</DialogDescription>
        </DialogHeader>
        <form
          className="flex flex-col gap-4"
          onSubmit={(e) => {
            e.preventDefault();
            if (task) onAssign(task, value || null);
          }}
        >
          <FormField id="assign-user" label="Assignee">
            <Select id="assign-user" value={value} onChange={(e) => setValue(e.target.value)}>
              <option value="">Unassigned</option>
              {options.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.label}
                </option>
              ))}
            </Select>
          </FormField>
          <DialogFooter>
            <Button variant="outline" onClick={onClose} disabled={pending}>
              Cancel
            </Button>
            <Button type="submit" disabled={pending}>
              {pending ? <Spinner /> : null}
              Save assignee
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

interface ShareDialogProps {
  task: TTask | null;
  organizations: readonly TOrganization[];
  pending: boolean;
  onClose: () => void;
  onShare: (task: TTask, ids: string[]) => void;
}

export function ShareDialog({ task, organizations, pending, onClose, onShare }: ShareDialogProps) {
  const shares = useTaskShares(task?.id);
  const [selected, setSelected] = useState<string[]>([]);
  useEffect(() => {
    if (shares.data) setSelected(shares.data.map((s) => s.id));
  }, [shares.data]);
  // Organizations the task is already shared with stay listed even if the caller left them.
  const choices = [
    ...organizations.map((o) => ({ id: o.id, name: o.name })),
    ...(shares.data ?? []).filter((s) => !organizations.some((o) => o.id === s.id)),
  ];
  const toggle = (id: string, on: boolean) =>
    setSelected((prev) => (on ? [...new Set([...prev, id])] : prev.filter((x) => x !== id)));

  return (
    <Dialog open={task !== null} onOpenChange={(open) => !open && !pending && onClose()}>
      <DialogContent className="max-w-md">
        <DialogHeader>
          <DialogTitle>Share task</DialogTitle>
          <DialogDescription>{task?.title}</DialogDescription>
        </DialogHeader>
        <form
          className="flex flex-col gap-4"
          onSubmit={(e) => {
            e.preventDefault();
            if (task) onShare(task, selected);
          }}
        >
          {shares.isPending ? (
            <div className="flex flex-col gap-2" role="status">
              <span className="sr-only">Loading shares…</span>
              <Skeleton className="h-5 w-48" />
              <Skeleton className="h-5 w-40" />
            </div>
          ) : choices.length === 0 ? (
            <p className="text-sm text-muted-foreground">You do not belong to any organization.</p>
          ) : (
            <OrgChecklist
              legend="Share with organizations"
              idPrefix="share-org"
              choices={choices}
              selected={selected}
              onToggle={toggle}
            />
          )}
          <DialogFooter>
            <Button variant="outline" onClick={onClose} disabled={pending}>
              Cancel
            </Button>
            <Button type="submit" disabled={pending || shares.isPending}>
              {pending ? <Spinner /> : null}
              Save sharing
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
