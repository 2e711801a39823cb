import type { TGoal } from '@cc/contract';
import { Badge } from './ui/badge';

/**
 * "At risk" beside a goal the goals API says is at risk (contract goal-numbers.ts: behind the
 * straight line, a forecast missing its target, a stale KPI), with its reasons as the API states them:
 * as a list (`detailed`) or as the badge's description. Nothing for a goal that is not at risk.
 */
export function GoalRiskMark({ goal, detailed = false }: { goal: TGoal; detailed?: boolean }) {
  if (!goal.risk.at_risk) return null;
  const reasons = goal.risk.reasons;
  const id = `goal-risk-${goal.id}`;
  return (
    <>
      <Badge variant="warning" title={reasons.join('; ')} aria-describedby={detailed ? undefined : id}>
        At risk
      </Badge>
      {detailed ? null : (
        <span id={id} className="sr-only">
          {reasons.join('; ')}
        </span>
      )}
    </>
  );
}

/** The reasons a goal is at risk, one per line, word for word from the goals API. */
export function GoalRiskReasons({ goal }: { goal: TGoal }) {
  if (!goal.risk.at_risk) return null;
  return (
    <ul
      aria-label={`Why ${goal.title} is at risk`}
      className="flex list-disc flex-col gap-0.5 pl-5 text-xs text-[#fcd34d]"
    >
      {goal.risk.reasons.map((r) => (
        <li key={r}>{r}</li>
      ))}
    </ul>
  );
}
