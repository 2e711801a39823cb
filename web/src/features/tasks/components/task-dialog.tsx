import {
  DEFAULT_TASK_STATUS,
  TASK_EDIT_STATUSES,
  TASK_PRIORITIES,
  TASK_STATUSES,
  type TCreateTaskRequest,
  type TOrganization,
  type TTask,
  type TUpdateTaskRequest,
} from '@cc/contract';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { FormField, fieldA11y } from '../../../components/form-field';
import { StaleVersionBanner } from '../../../components/stale-version-banner';
import { Button } from '../../../components/ui/button';
import { Checkbox } from '../../../components/ui/checkbox';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '../../../components/ui/dialog';
import { Input } from '../../../components/ui/input';
import { Select } from '../../../components/ui/select';
import { Spinner } from '../../../components/ui/spinner';
import { Textarea } from '../../../components/ui/textarea';
import type { Person } from '../../../lib/assignable-people';
import type { GoalOption } from '../../../lib/queries/goal-options';

/** The create form's priorities are lower case (spec section 4); the server reads them in any case. */
export const CREATE_PRIORITIES = ['low', 'medium', 'high'] as const;
const CREATE_PRIORITY_LABELS: Record<(typeof CREATE_PRIORITIES)[number], string> = {
  low: 'Low',
  medium: 'Medium',
  high: 'High',
};
const TITLE_REQUIRED = 'Title is required';

interface TaskFormValues {
  title: string;
  description: string;
  priority: string;
  status: string;
  due_date: string;
  notes: string;
  assigned_to_user_id: string;
  shared_org_ids: string[];
  goal_id: string;
}

function toValues(task: TTask | null): TaskFormValues {
  return {
    title: task?.title ?? '',
    description: task?.description ?? '',
    priority: task?.priority ?? 'medium',
    status: task?.status ?? DEFAULT_TASK_STATUS,
    due_date: task?.due_date?.slice(0, 10) ?? '',
    notes: task?.notes ?? '',
    assigned_to_user_id: task?.assigned_to_user_id ?? '',
    shared_org_ids: task?.shared_org_ids ?? [],
    goal_id: task?.goal_id ?? '',
  };
}

/**
 * Saving over someone else's newer version sends only the fields typed since the form opened, so
 * their changes to the other fields stay.
 */
function changedSince(task: TTask, v: TaskFormValues, body: TUpdateTaskRequest): TUpdateTaskRequest {
  const opened = toValues(task);
  const keys = Object.keys(body) as (keyof TUpdateTaskRequest & keyof TaskFormValues)[];
  return Object.fromEntries(keys.filter((k) => v[k] !== opened[k]).map((k) => [k, body[k]]));
}

interface TaskDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The task being edited, or null for the create form. */
  task: TTask | null;
  people: readonly Person[];
  organizations: readonly TOrganization[];
  /** The goals the task may serve (the caller's open goals). */
  goals?: readonly GoalOption[];
  pending: boolean;
  onCreate: (body: TCreateTaskRequest) => void;
  onUpdate: (task: TTask, body: TUpdateTaskRequest) => void;
  /** The task as stored now, after a save was refused because it changed since the form opened. */
  stale?: TTask | null;
  /** Drop the typed values for the stale (fresh) version's. */
  onUseTheirs?: () => void;
}

export function TaskDialog({
  open,
  onOpenChange,
  task,
  people,
  organizations,
  goals = [],
  pending,
  onCreate,
  onUpdate,
  stale,
  onUseTheirs,
}: TaskDialogProps) {
  const editing = task !== null;
  const { register, handleSubmit, reset, formState } = useForm<TaskFormValues>({
    defaultValues: toValues(task),
  });
  const titleError = formState.errors.title?.message;

  useEffect(() => {
    if (open) reset(toValues(task));
  }, [open, task, reset]);

  const submit = handleSubmit((v) => {
    const common = {
      title: v.title.trim(),
      description: v.description.trim() || null,
      due_date: v.due_date || null,
      notes: v.notes.trim() || null,
      goal_id: v.goal_id || null,
    };
    if (task) {
      const body: TUpdateTaskRequest = {
        ...common,
        priority: v.priority as TUpdateTaskRequest['priority'],
        status: v.status as TUpdateTaskRequest['status'],
      };
      onUpdate(task, stale ? changedSince(task, v, body) : body);
    } else {
      onCreate({
        ...common,
        priority: v.priority,
        status: v.status as TCreateTaskRequest['status'],
        assigned_to_user_id: v.assigned_to_user_id || null,
        shared_org_ids: v.shared_org_ids,
      });
    }
  });

  const statuses = editing ? TASK_EDIT_STATUSES : TASK_STATUSES;

  return (
    <Dialog open={open} onOpenChange={(next) => !pending && onOpenChange(next)}>
      <DialogContent className="max-w-xl">
        <DialogHeader>
          <DialogTitle>{editing ? 'Edit task' : 'New task'}</DialogTitle>
          <DialogDescription>
            {editing ? 'Change the task’s details and status.' : 'Create a task, assign it and share it.'}
          </DialogDescription>
        </DialogHeader>
        <form onSubmit={submit} noValidate className="flex flex-col gap-4">
          {stale ? (
            <StaleVersionBanner
              fields={[
                ['Title', stale.title],
                ['Description', stale.description],
                ['Priority', stale.priority],
                ['Status', stale.status],
                ['Due date', stale.due_date?.slice(0, 10)],
                ['Notes', stale.notes],
              ]}
              onUseTheirs={() => onUseTheirs?.()}
            />
          ) : null}
          <FormField id="task-title" label="Title" error={titleError}>
            <Input
              aria-required="true"
              {...fieldA11y('task-title', titleError)}
              {...register('title', { validate: (t) => t.trim().length > 0 || TITLE_REQUIRED })}
            />
          </FormField>
          <FormField id="task-description" label="Description">
            <Textarea id="task-description" {...register('description')} />
          </FormField>
          <div className="grid gap-4 sm:grid-cols-3">
            <FormField id="task-priority" label="Priority">
              <Select id="task-priority" {...register('priority')}>
                {editing
                  ? TASK_PRIORITIES.map((p) => (
                      <option key={p} value={p}>
                        {p}
                      </option>
                    ))
                  : CREATE_PRIORITIES.map((p) => (
                      <option key={p} value={p}>
                        {CREATE_PRIORITY_LABELS[p]}
                      </option>
                    ))}
              </Select>
            </FormField>
            <FormField id="task-status" label="Status">
              <Select id="task-status" {...register('status')}>
                {editing && task.status === 'Pending' ? (
                  <option value="Pending" disabled>
                    Pending
                  </option>
                ) : null}
                {statuses.map((s) => (
                  <option key={s} value={s}>
                    {s}
                  </option>
                ))}
              </Select>
            </FormField>
            <FormField id="task-due-date" label="Due date">
              <Input id="task-due-date" type="date" {...register('due_date')} />
            </FormField>
          </div>
          <FormField id="task-notes" label="Notes">
            <Textarea id="task-notes" {...register('notes')} />
          </FormField>
          <FormField id="task-goal" label="Goal">
            <Select id="task-goal" {...register('goal_id')}>
              <option value="">No goal</option>
              {task?.goal_id && !goals.some((g) => g.id === task.goal_id) ? (
                // Linked to a goal not in the picker (done, or one this caller does not see): kept as is.
                <option value={task.goal_id}>The goal it serves now</option>
              ) : null}
              {goals.map((g) => (
                <option key={g.id} value={g.id}>
                  {g.title}
                </option>
              ))}
            </Select>
          </FormField>
          {!editing ? (
            <>
              <FormField id="task-assignee" label="Assignee">
                <Select id="task-assignee" {...register('assigned_to_user_id')}>
                  <option value="">Unassigned</option>
                  {people.map((p) => (
                    <option key={p.id} value={p.id}>
                      {p.label}
                    </option>
                  ))}
                </Select>
              </FormField>
              {organizations.length ? (
                <fieldset className="flex flex-col gap-2">
                  <legend className="mb-1 text-sm font-medium">Share with organizations</legend>
                  {organizations.map((o) => (
                    <div key={o.id} className="flex w-fit items-center gap-2 text-sm">
                      <Checkbox id={`task-share-${o.id}`} value={o.id} {...register('shared_org_ids')} />
                      <label htmlFor={`task-share-${o.id}`} className="cursor-pointer">
                        {o.name}
                      </label>
                    </div>
                  ))}
                </fieldset>
              ) : null}
            </>
          ) : null}
          <DialogFooter>
            <Button variant="outline" onClick={() => onOpenChange(false)} disabled={pending}>
              Cancel
            </Button>
            <Button type="submit" disabled={pending}>
              {pending ? <Spinner /> : null}
              {editing ? 'Save task' : 'Create task'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
