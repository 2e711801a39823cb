import {
  COMPLETED_TASK_STATUS,
  type TCreateTaskRequest,
  type TTask,
  type TTaskStatus,
  type TUpdateTaskRequest,
} from '@cc/contract';
import { ListTodo, Plus } from 'lucide-react';
import { type ReactNode, useMemo, useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { PageHeader } from '../../../components/page-header';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Skeleton } from '../../../components/ui/skeleton';
import { useAuth } from '../../../lib/auth';
import { useGoalOptions } from '../../../lib/queries/goal-options';
import { useOrganizations } from '../../../lib/queries/organizations';
import { useAssignableUsers } from '../../../lib/queries/users';
import {
  DEFAULT_TASK_FILTERS,
  readTask,
  type TaskFilters as Filters,
  useAssignTask,
  useCreateTask,
  useDeleteTask,
  useShareTask,
  useTasks,
  useUpdateTask,
} from '../api';
import { AssignDialog, ShareDialog } from '../components/assign-share-dialogs';
import { assignablePeople } from '../../../lib/assignable-people';
import { TaskCard } from '../components/task-card';
import { TaskDialog } from '../components/task-dialog';
import { TaskReadDialog } from '../components/task-read-dialog';
import { TaskFilters } from '../components/task-filters';
import { useDebounced } from '../../../lib/use-debounced';
import { useStaleVersion } from '../../../lib/use-stale-version';
import { useLinkedTask } from '../use-linked-task';

/** /app/my-tasks. `suggestions` is the AI task suggestions panel the route composes in. */
export default function MyTasksPage({ suggestions }: { suggestions?: ReactNode }) {
  const { user } = useAuth();
  const isCeo = user?.user_level === 'ceo';
  const [filters, setFilters] = useState<Filters>(DEFAULT_TASK_FILTERS);
  const search = useDebounced(filters.search);
  const tasks = useTasks({ ...filters, search, assignedTo: isCeo ? filters.assignedTo : '' });
  const assignable = useAssignableUsers();
  const orgs = useOrganizations();
  const organizations = orgs.data ?? [];
  const goalOptions = useGoalOptions();
  const people = useMemo(() => assignablePeople(user, assignable.data ?? []), [user, assignable.data]);
  const orgNames = useMemo(() => new Map(organizations.map((o) => [o.id, o.name])), [organizations]);

  const create = useCreateTask();
  const update = useUpdateTask();
  const assign = useAssignTask();
  const share = useShareTask();
  const remove = useDeleteTask();

  const [dialog, setDialog] = useState<{ task: TTask | null } | null>(null);
  const [assigning, setAssigning] = useState<TTask | null>(null);
  const [sharing, setSharing] = useState<TTask | null>(null);
  const [deleting, setDeleting] = useState<TTask | null>(null);
  const [busyId, setBusyId] = useState<string | null>(null);
  // A link (a citation, an e-mail) opens the task to read; its Edit opens the form (issue 47 item 4).
  const [reading, setReading] = useState<TTask | null>(null);
  useLinkedTask(setReading);

  // Done tasks stay hidden unless the box is ticked (spec §2; choosing Done ticks it), even if the
  // list was fetched before a status change.
  const visible = (tasks.data ?? []).filter(
    (t) => filters.includeCompleted || t.status !== COMPLETED_TASK_STATUS,
  );

  // Other task mutations fail silently (spec section 8); each one refetches the list when it settles.
  const onCreate = (body: TCreateTaskRequest) => create.mutate(body, { onSuccess: () => setDialog(null) });
  const stale = useStaleVersion(readTask);
  const closeDialog = () => {
    stale.clear();
    setDialog(null);
  };
  const onUpdate = (task: TTask, body: TUpdateTaskRequest) =>
    update.mutate(
      { id: task.id, body, ifMatch: stale.version(task) },
      { onSuccess: closeDialog, onError: (err) => void stale.onSaveError(err, task.id) },
    );
  const onUseTheirs = () => {
    // The form resets to the task it is given: the fresh one.
    if (stale.fresh) setDialog({ task: stale.fresh });
    stale.clear();
  };
  const onStatus = (task: TTask, status: TTaskStatus) => {
    setBusyId(task.id);
    update.mutate({ id: task.id, body: { status } }, { onSettled: () => setBusyId(null) });
  };
  const onAssign = (task: TTask, userId: string | null) =>
    assign.mutate({ id: task.id, userId }, { onSuccess: () => setAssigning(null) });
  const onShare = (task: TTask, ids: string[]) =>
    share.mutate({ id: task.id, ids }, { onSuccess: () => setSharing(null) });
  const onDelete = () => {
    if (!deleting) return;
    remove.mutate(deleting.id, { onSettled: () => setDeleting(null) });
  };

  return (
    <div className="flex flex-col gap-6">
      <PageHeader
        title="Tasks"
        description="Your tasks, the tasks assigned to you and those shared with your organizations."
        actions={
          <Button onClick={() => setDialog({ task: null })}>
            <Plus aria-hidden="true" />
            New task
          </Button>
        }
      />
      {suggestions}
      <Card className="p-4 sm:p-5">
        <TaskFilters value={filters} onChange={setFilters} people={isCeo ? people : null} />
      </Card>

      {tasks.isPending ? (
        <div className="flex flex-col gap-3" role="status">
          <span className="sr-only">Loading tasks…</span>
          <Skeleton className="h-36" />
          <Skeleton className="h-36" />
          <Skeleton className="h-36" />
        </div>
      ) : tasks.isError ? (
        <Alert>Failed to load tasks: {tasks.error.message}</Alert>
      ) : visible.length === 0 ? (
        <Card className="flex flex-col items-center gap-3 px-6 py-12 text-center">
          <ListTodo className="size-8 text-muted-foreground" aria-hidden="true" />
          <p className="text-sm text-muted-foreground">No tasks match the current filters.</p>
        </Card>
      ) : (
        <div className="grid gap-4 xl:grid-cols-2" aria-busy={tasks.isFetching}>
          {visible.map((t) => (
            <TaskCard
              key={t.id}
              task={t}
              orgNames={orgNames}
              busy={busyId === t.id}
              onStatus={onStatus}
              onEdit={(task) => setDialog({ task })}
              onAssign={setAssigning}
              onShare={setSharing}
              onDelete={setDeleting}
            />
          ))}
        </div>
      )}

      <TaskReadDialog
        task={reading}
        orgNames={orgNames}
        goalTitle={(id) => goalOptions.data?.find((g) => g.id === id)?.title}
        onClose={() => setReading(null)}
        onEdit={(task) => {
          setReading(null);
          setDialog({ task });
        }}
      />
      <TaskDialog
        open={dialog !== null}
        onOpenChange={(open) => !open && closeDialog()}
        task={dialog?.task ?? null}
        people={people}
        organizations={organizations}
        goals={goalOptions.data}
        pending={create.isPending || update.isPending}
        onCreate={onCreate}
        onUpdate={onUpdate}
        stale={stale.fresh}
        onUseTheirs={onUseTheirs}
      />
      <AssignDialog
        task={assigning}
        people={people}
        pending={assign.isPending}
        onClose={() => setAssigning(null)}
        onAssign={onAssign}
      />
      <ShareDialog
        task={sharing}
        organizations={organizations}
        pending={share.isPending}
        onClose={() => setSharing(null)}
        onShare={onShare}
      />
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title="Delete task?"
        description={deleting ? `"${deleting.title}" will be deleted. This action cannot be undone.` : ''}
        confirmLabel="Delete task"
        pending={remove.isPending}
        onConfirm={onDelete}
      />
    </div>
  );
}
