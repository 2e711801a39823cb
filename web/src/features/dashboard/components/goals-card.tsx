import type { TGoal } from '@cc/contract';
import { ArrowRight, Target } from 'lucide-react';
import { Link } from 'react-router';
import { GoalRiskMark } from '../../../components/goal-risk';
import { Alert } from '../../../components/ui/alert';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card';
import { Progress } from '../../../components/ui/progress';
import { Skeleton } from '../../../components/ui/skeleton';
import { useDashboardGoals } from '../api';

export const PERSONAL_GROUP = 'Personal';

export interface GoalGroup {
  name: string;
  goals: TGoal[];
}

/** Goals grouped by organization name (in order of first appearance); goals without one go under "Personal", last. */
export function groupGoals(goals: readonly TGoal[]): GoalGroup[] {
  const groups = new Map<string, TGoal[]>();
  const personal: TGoal[] = [];
  for (const g of goals) {
    if (!g.organization_id) {
      personal.push(g);
      continue;
    }
    const name = g.organization_name ?? 'Organization';
    const list = groups.get(name) ?? [];
    list.push(g);
    groups.set(name, list);
  }
  const result = [...groups.entries()].map(([name, list]) => ({ name, goals: list }));
  if (personal.length) result.push({ name: PERSONAL_GROUP, goals: personal });
  return result;
}

export function GoalsCard() {
  const goals = useDashboardGoals();
  const groups = groupGoals(goals.data ?? []);

  return (
    <Card className="flex flex-col">
      <CardHeader className="flex-row items-center justify-between gap-3">
        <div className="flex items-center gap-2">
          <Target className="size-5 text-primary" aria-hidden="true" />
          <CardTitle>Strategic Goals</CardTitle>
        </div>
        <Link
          to="/app/strategy"
          className="inline-flex items-center gap-1 rounded-md text-sm font-medium text-primary underline-offset-4 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
        >
          View All
          <ArrowRight className="size-4" aria-hidden="true" />
        </Link>
      </CardHeader>
      <CardContent className="flex flex-1 flex-col gap-5">
        {goals.isPending ? (
          <div className="flex flex-col gap-3" role="status">
            <span className="sr-only">Loading goals…</span>
            <Skeleton className="h-4 w-32" />
            <Skeleton className="h-12" />
            <Skeleton className="h-12" />
          </div>
        ) : goals.isError ? (
          <Alert>Could not load goals: {goals.error.message}</Alert>
        ) : groups.length === 0 ? (
          <p className="rounded-md border border-dashed border-border px-4 py-8 text-center text-sm text-muted-foreground">
            No strategic goals defined yet.
          </p>
        ) : (
          groups.map((group) => (
            <section key={group.name} aria-label={group.name} className="flex flex-col gap-2">
              <h3 className="text-xs font-semibold tracking-[0.14em] text-muted-foreground uppercase">
                {group.name}
              </h3>
              <ul className="flex flex-col gap-2">
                {group.goals.map((goal) => {
                  // The goals API's figures (contract goal-numbers.ts), as on the Strategy page.
                  const progress = goal.progress;
                  return (
                    <li key={goal.id}>
                      <Link
                        to="/app/strategy"
                        className="flex flex-col gap-2 rounded-lg border border-border bg-background/40 px-3 py-2.5 transition-colors hover:border-[#3a4a6d] hover:bg-muted/50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
                      >
                        <span className="flex items-baseline justify-between gap-3">
                          <span className="flex min-w-0 flex-wrap items-center gap-2">
                            <span className="font-medium break-words">{goal.title}</span>
                            <GoalRiskMark goal={goal} />
                          </span>
                          <span className="shrink-0 text-sm tabular-nums text-muted-foreground">
                            {progress}%
                          </span>
                        </span>
                        <Progress value={progress} label={`Progress of ${goal.title}`} />
                      </Link>
                    </li>
                  );
                })}
              </ul>
            </section>
          ))
        )}
      </CardContent>
    </Card>
  );
}
