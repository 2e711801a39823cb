import { KPI_DIRECTION_LABELS, type TGoal, type TKpi } from '@cc/contract';
import { Building2, CalendarDays, Pencil, Plus, Trash2, User } from 'lucide-react';
import { GoalRiskMark, GoalRiskReasons } from '../../../components/goal-risk';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Progress } from '../../../components/ui/progress';
import { formatDay } from '../../../lib/format';
import { GoalStatusBadge } from './goal-status';
import { KpiStaleMark, KpiTrend } from './kpi-trend';

interface GoalCardProps {
  goal: TGoal;
  onEdit: (goal: TGoal) => void;
  onDelete: (goal: TGoal) => void;
  /** Record a check-in of one of the goal's KPIs (offered when the caller may edit the goal). */
  onCheckIn?: (goal: TGoal, kpi: TKpi) => void;
}

export function GoalCard({ goal, onEdit, onDelete, onCheckIn }: GoalCardProps) {
  // Every figure is the goals API's (contract goal-numbers.ts): progress by direction, expected, risk.
  const progress = goal.progress;
  return (
    <Card className="flex flex-col gap-4 p-4 sm:p-5" aria-label={goal.title} role="article">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="flex min-w-0 flex-1 flex-col gap-1.5">
          <div className="flex flex-wrap items-center gap-2">
            <h3 className="text-base font-semibold break-words">{goal.title}</h3>
            <GoalStatusBadge status={goal.status} />
            <GoalRiskMark goal={goal} detailed />
          </div>
          {goal.description ? (
            <p className="text-sm whitespace-pre-wrap break-words text-muted-foreground">
              {goal.description}
            </p>
          ) : null}
          <div className="flex flex-wrap items-center gap-x-4 gap-y-1 text-xs text-muted-foreground">
            <span className="inline-flex items-center gap-1">
              <CalendarDays className="size-3.5" aria-hidden="true" />
              Due {formatDay(goal.due_date)}
            </span>
            <span className="inline-flex items-center gap-1">
              {goal.organization_id ? (
                <Building2 className="size-3.5" aria-hidden="true" />
              ) : (
                <User className="size-3.5" aria-hidden="true" />
              )}
              {goal.organization_name ?? 'Personal'}
            </span>
          </div>
        </div>
        {goal.can_edit || goal.can_delete ? (
          <div className="flex gap-1">
            {goal.can_edit ? (
              <Button
                variant="ghost"
                size="icon-sm"
                aria-label={`Edit ${goal.title}`}
                onClick={() => onEdit(goal)}
              >
                <Pencil aria-hidden="true" />
              </Button>
            ) : null}
            {goal.can_delete ? (
              <Button
                variant="ghost"
                size="icon-sm"
                aria-label={`Delete ${goal.title}`}
                className="text-danger-text"
                onClick={() => onDelete(goal)}
              >
                <Trash2 aria-hidden="true" />
              </Button>
            ) : null}
          </div>
        ) : null}
      </div>
      <div className="flex flex-col gap-1.5">
        <div className="flex items-center justify-between text-xs">
          <span className="font-medium text-muted-foreground">Progress</span>
          <span className="tabular-nums">
            {progress}%{' '}
            <span className="text-muted-foreground">· {goal.expected_progress}% expected by today</span>
          </span>
        </div>
        <Progress value={progress} label={`Progress of ${goal.title}`} />
        <GoalRiskReasons goal={goal} />
      </div>
      {goal.kpis.length ? (
        <ul className="grid gap-3 sm:grid-cols-2" aria-label={`KPIs of ${goal.title}`}>
          {goal.kpis.map((k) => {
            const p = k.progress;
            return (
              <li
                key={k.id}
                className="flex flex-col gap-1.5 rounded-md border border-border/70 bg-background/40 p-2.5"
              >
                <div className="flex items-baseline justify-between gap-2 text-xs">
                  <span className="flex min-w-0 items-center gap-1.5 font-medium break-words">
                    {k.name}
                    {k.direction === 'lower_is_better' ? (
                      <span className="font-normal text-muted-foreground">
                        ({KPI_DIRECTION_LABELS[k.direction].toLowerCase()})
                      </span>
                    ) : null}
                    <KpiStaleMark kpi={k} />
                  </span>
                  <span className="shrink-0 tabular-nums text-muted-foreground">
                    {k.current_value}
                    {k.target_value !== null ? ` / ${k.target_value}` : ''}
                    {k.unit ? ` ${k.unit}` : ''} · {p}%
                  </span>
                </div>
                <Progress
                  value={p}
                  label={`Progress of KPI ${k.name}`}
                  className="h-1.5"
                  indicatorClassName="bg-[#93c5fd]"
                />
                <div className="flex flex-col gap-1">
                  <KpiTrend kpi={k} dueDate={goal.due_date} />
                  {goal.can_edit && onCheckIn ? (
                    <Button
                      variant="ghost"
                      size="sm"
                      className="self-end"
                      aria-label={`Check in ${k.name}`}
                      onClick={() => onCheckIn(goal, k)}
                    >
                      <Plus aria-hidden="true" />
                      Check in
                    </Button>
                  ) : null}
                </div>
              </li>
            );
          })}
        </ul>
      ) : null}
    </Card>
  );
}
