import { isDashboardUrgentTask, type TTask } from '@cc/contract';
import { CalendarDays, Siren } from 'lucide-react';
import { Link } from 'react-router';
import { Alert } from '../../../components/ui/alert';
import { Badge } from '../../../components/ui/badge';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card';
import { Skeleton } from '../../../components/ui/skeleton';
import { useUrgentTasks } from '../api';
import { formatDay } from '../../../lib/format';
import { INBOX_PATH, useInboxCount } from '../../../lib/queries/inbox';

/** The Urgent panel's line about the approvals inbox (issue 19 section 2). */
export function inboxWaitingText(n: number): string {
  return n === 1 ? '1 item waiting in your Inbox' : `${n} items waiting in your Inbox`;
}

function priorityVariant(priority: TTask['priority']) {
  return priority === 'Urgent' ? 'danger' : priority === 'High' ? 'warning' : 'secondary';
}

export function UrgentTasksCard() {
  const tasks = useUrgentTasks();
  const inbox = useInboxCount();
  // The server sends only these; a task edited since (now Done, or no longer High) drops out at once.
  const list = (tasks.data ?? []).filter(isDashboardUrgentTask);

  return (
    <Card className="flex flex-col">
      <CardHeader className="flex-row items-center gap-2">
        <Siren className="size-5 text-primary" aria-hidden="true" />
        <CardTitle>{'Urgent Tasks & Communications'}</CardTitle>
      </CardHeader>
      <CardContent className="flex flex-1 flex-col gap-2">
        {inbox.data ? (
          <Link
            to={INBOX_PATH}
            className="flex items-center justify-between gap-2 rounded-lg border border-border bg-background/40 px-3 py-2 text-sm font-medium transition-colors hover:bg-muted/50"
          >
            <span>{inboxWaitingText(inbox.data.count)}</span>
            <Badge variant={inbox.data.count > 0 ? 'warning' : 'secondary'}>{inbox.data.count}</Badge>
          </Link>
        ) : null}
        {tasks.isPending ? (
          <div className="flex flex-col gap-2" role="status">
            <span className="sr-only">Loading tasks…</span>
            <Skeleton className="h-14" />
            <Skeleton className="h-14" />
            <Skeleton className="h-14" />
          </div>
        ) : tasks.isError ? (
          <Alert>Could not load tasks: {tasks.error.message}</Alert>
        ) : list.length === 0 ? (
          <p className="rounded-md border border-dashed border-border px-4 py-8 text-center text-sm text-muted-foreground">
            No high-priority tasks at the moment. Well done!
          </p>
        ) : (
          <ul className="flex flex-col gap-2">
            {list.map((task) => (
              <li key={task.id}>
                <Link
                  to="/app/my-tasks"
                  className="flex flex-col gap-1.5 rounded-lg border border-border bg-background/40 px-3 py-2.5 transition-colors hover:border-[#3a4a6d] hover:bg-muted/50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
                >
                  <span className="flex items-start justify-between gap-3">
                    <span className="min-w-0 font-medium break-words">{task.title}</span>
                    <Badge variant={priorityVariant(task.priority)}>{task.priority}</Badge>
                  </span>
                  <span className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-muted-foreground">
                    <span>{task.status}</span>
                    {task.due_date ? (
                      <span className="inline-flex items-center gap-1">
                        <CalendarDays className="size-3.5" aria-hidden="true" />
                        Due {formatDay(task.due_date)}
                      </span>
                    ) : null}
                    {task.assigned_to_user ? <span>{task.assigned_to_user.name}</span> : null}
                  </span>
                </Link>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
