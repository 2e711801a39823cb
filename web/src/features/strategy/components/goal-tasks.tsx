import { citationUrl, type TTask } from '@cc/contract';
import { Link } from 'react-router';
import { formatDay } from '../../../lib/format';
import { useGoalTasks } from '../api';

function TaskLines({ tasks, empty }: { tasks: TTask[]; empty: string }) {
  if (tasks.length === 0) return <p className="text-xs text-muted-foreground">{empty}</p>;
  return (
    <ul className="flex flex-col gap-1 text-sm">
      {tasks.map((t) => (
        <li key={t.id} className="flex flex-wrap items-baseline justify-between gap-2">
          <Link
            to={citationUrl('task', t.id)}
            className="min-w-0 break-words underline-offset-2 hover:underline"
          >
            {t.title}
          </Link>
          <span className="shrink-0 text-xs text-muted-foreground">
            {t.status}
            {t.due_date ? ` · due ${formatDay(t.due_date)}` : ''}
          </span>
        </li>
      ))}
    </ul>
  );
}

/** The tasks linked to a goal (issue 20 §1): open ones, and those done in the last 14 days. */
export function GoalTasks({ goalId }: { goalId: string }) {
  const { data, isPending, isError } = useGoalTasks(goalId);
  return (
    <section
      aria-label="Tasks of this goal"
      className="flex flex-col gap-3 rounded-lg border border-border p-3 sm:p-4"
    >
      <h3 className="text-sm font-medium">Tasks</h3>
      {isPending ? (
        <p className="text-xs text-muted-foreground">Loading tasks…</p>
      ) : isError ? (
        <p className="text-xs text-danger-text">The tasks could not be loaded.</p>
      ) : (
        <>
          <div className="flex flex-col gap-1.5">
            <h4 className="text-xs font-semibold uppercase tracking-wide text-muted-foreground">Open</h4>
            <TaskLines tasks={data.open} empty="No open tasks linked to this goal." />
          </div>
          <div className="flex flex-col gap-1.5">
            <h4 className="text-xs font-semibold uppercase tracking-wide text-muted-foreground">
              Recently done
            </h4>
            <TaskLines tasks={data.done} empty="No task done in the last 14 days." />
          </div>
        </>
      )}
    </section>
  );
}
