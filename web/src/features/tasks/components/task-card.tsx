import { TASK_EDIT_STATUSES, type TTask, type TTaskStatus } from '@cc/contract';
import {
  Building2,
  CalendarDays,
  ChevronDown,
  Pencil,
  Share2,
  Trash2,
  UserCheck,
  UserPen,
} from 'lucide-react';
import { Badge, type BadgeProps } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from '../../../components/ui/dropdown-menu';
import { formatDay } from '../../../lib/format';

export const PRIORITY_VARIANT: Record<TTask['priority'], BadgeProps['variant']> = {
  Low: 'secondary',
  Medium: 'info',
  High: 'warning',
  Urgent: 'danger',
};

export const STATUS_VARIANT: Record<TTaskStatus, BadgeProps['variant']> = {
  'To Do': 'outline',
  Pending: 'outline',
  'In Progress': 'info',
  Done: 'success',
  Review: 'warning',
  Cancelled: 'secondary',
  Bottleneck: 'danger',
};

interface TaskCardProps {
  task: TTask;
  /** Names of the organizations the caller belongs to, by id. */
  orgNames: ReadonlyMap<string, string>;
  busy: boolean;
  onStatus: (task: TTask, status: TTaskStatus) => void;
  onEdit: (task: TTask) => void;
  onAssign: (task: TTask) => void;
  onShare: (task: TTask) => void;
  onDelete: (task: TTask) => void;
}

export function TaskCard({
  task,
  orgNames,
  busy,
  onStatus,
  onEdit,
  onAssign,
  onShare,
  onDelete,
}: TaskCardProps) {
  const shared = task.shared_org_ids.map((id) => orgNames.get(id)).filter((n): n is string => Boolean(n));
  const hiddenShares = task.shared_org_ids.length - shared.length;
  return (
    <Card className="flex flex-col gap-3 p-4 sm:p-5" role="article" aria-label={task.title}>
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="flex min-w-0 flex-1 flex-col gap-1.5">
          <div className="flex flex-wrap items-center gap-2">
            <h3 className="font-semibold break-words">{task.title}</h3>
            <Badge variant={PRIORITY_VARIANT[task.priority]}>{task.priority}</Badge>
            <Badge variant={STATUS_VARIANT[task.status]} data-testid="task-status">
              {task.status}
            </Badge>
          </div>
          {task.description ? (
            <p className="text-sm whitespace-pre-wrap break-words text-muted-foreground">
              {task.description}
            </p>
          ) : null}
        </div>
      </div>
      <dl className="grid grid-cols-1 gap-x-4 gap-y-1.5 text-xs text-muted-foreground sm:grid-cols-2">
        <div className="flex items-center gap-1.5">
          <CalendarDays className="size-3.5 shrink-0" aria-hidden="true" />
          <dt className="sr-only">Due date</dt>
          <dd>{task.due_date ? `Due ${formatDay(task.due_date)}` : 'No due date'}</dd>
        </div>
        <div className="flex items-center gap-1.5">
          <UserCheck className="size-3.5 shrink-0" aria-hidden="true" />
          <dt>Assignee:</dt>
          <dd className="text-foreground">{task.assigned_to_user?.name ?? 'Unassigned'}</dd>
        </div>
        <div className="flex items-center gap-1.5">
          <UserPen className="size-3.5 shrink-0" aria-hidden="true" />
          <dt>Created by:</dt>
          <dd className="text-foreground">{task.created_by_user?.name ?? '—'}</dd>
        </div>
        <div className="flex items-center gap-1.5">
          <Building2 className="size-3.5 shrink-0" aria-hidden="true" />
          <dt>Shared with:</dt>
          <dd className="text-foreground">
            {shared.length || hiddenShares
              ? [...shared, ...(hiddenShares ? [`${hiddenShares} other`] : [])].join(', ')
              : 'Not shared'}
          </dd>
        </div>
      </dl>
      <div className="flex flex-wrap items-center gap-2 border-t border-border/70 pt-3">
        <DropdownMenu>
          <DropdownMenuTrigger asChild disabled={!task.can_edit || busy}>
            <Button variant="outline" size="sm" aria-label={`Change status of ${task.title}`}>
              Status: {task.status}
              <ChevronDown aria-hidden="true" />
            </Button>
          </DropdownMenuTrigger>
          <DropdownMenuContent align="start">
            {TASK_EDIT_STATUSES.map((s) => (
              <DropdownMenuItem key={s} disabled={s === task.status} onSelect={() => onStatus(task, s)}>
                {s}
              </DropdownMenuItem>
            ))}
          </DropdownMenuContent>
        </DropdownMenu>
        <Button
          variant="ghost"
          size="sm"
          disabled={!task.can_edit || busy}
          onClick={() => onEdit(task)}
          aria-label={`Edit ${task.title}`}
        >
          <Pencil aria-hidden="true" />
          Edit
        </Button>
        {task.can_assign ? (
          <Button
            variant="ghost"
            size="sm"
            disabled={busy}
            onClick={() => onAssign(task)}
            aria-label={`Assign ${task.title}`}
          >
            <UserCheck aria-hidden="true" />
            Assign
          </Button>
        ) : null}
        {task.can_delete ? (
          <>
            <Button
              variant="ghost"
              size="sm"
              disabled={busy}
              onClick={() => onShare(task)}
              aria-label={`Share ${task.title}`}
            >
              <Share2 aria-hidden="true" />
              Share
            </Button>
            <Button
              variant="ghost"
              size="sm"
              disabled={busy}
              className="text-danger-text"
              onClick={() => onDelete(task)}
              aria-label={`Delete ${task.title}`}
            >
              <Trash2 aria-hidden="true" />
              Delete
            </Button>
          </>
        ) : null}
      </div>
    </Card>
  );
}
