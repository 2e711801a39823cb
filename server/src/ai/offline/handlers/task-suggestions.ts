import { suggestionTitleKey, type TModelSuggestion } from '@cc/contract';
import type { WorkspaceSnapshot } from '../../context/workspace-snapshot.ts';
import { fmt } from '../prose.ts';
import type { OfflineHandler } from '../types.ts';

/** What the task-suggestions service passes in `providerOptions.offline.data` (and in the prompt). */
export interface TaskSuggestionsData {
  snapshot: WorkspaceSnapshot;
  /** "kpi:<id>", "goal:<id>", "task:<id>" already suggested (pending, approved or rejected) */
  exclude_source_keys: string[];
  /** suggestionTitleKey of open tasks and earlier suggestions */
  exclude_title_keys: string[];
  max: number;
}

const addDays = (day: string, n: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

/**
 * Candidates in order of urgency: lagging KPIs (largest gap first), then the goals at risk that no
 * lagging KPI stands for (a stale KPI), overdue goals, unassigned tasks. Which goals are at risk, and
 * their figures, are the goals API's (contract goal-numbers.ts).
 */
export function suggestionCandidates(s: WorkspaceSnapshot): TModelSuggestion[] {
  const out: TModelSuggestion[] = [];
  const riskOf = new Map(s.at_risk_goals.map((g) => [g.id, g.risk.reasons.join('; ')]));
  for (const k of s.lagging_kpis) {
    const gap = k.expected_progress - k.progress;
    const unit = k.unit ? ` ${k.unit}` : '';
    out.push({
      title: `Close the ${k.title} gap on “${k.goal_title}”`,
      description:
        `${k.title} is at ${fmt(k.current_value)} of ${fmt(k.target_value ?? 0)}${unit} (${k.progress}% of target, ` +
        `${k.expected_progress}% expected by today). ` +
        'Agree the actions that bring it back on pace, name an owner and report progress weekly.',
      assignee_user_id: k.goal_owner_user_id,
      priority: gap >= 30 ? 'High' : 'Medium',
      due_date: addDays(s.today, 7),
      llm_context:
        `KPI “${k.title}” of goal “${k.goal_title}” is at ${k.progress}% of its target ` +
        `(${k.expected_progress}% expected by today); the goal is at risk: ${riskOf.get(k.goal_id) ?? 'behind plan'}.`,
      source_type: 'kpi',
      source_id: k.id,
    });
  }
  const covered = new Set(s.lagging_kpis.map((k) => k.goal_id));
  for (const g of s.at_risk_goals) {
    if (covered.has(g.id) || g.overdue) continue;
    out.push({
      title: `Review the plan of “${g.title}”`,
      description:
        `Goal “${g.title}” is at risk: ${g.risk.reasons.join('; ')}. ` +
        'Check in its KPIs, agree what brings it back on pace and name an owner.',
      assignee_user_id: g.owner_user_id,
      priority: 'Medium',
      due_date: addDays(s.today, 7),
      llm_context: `Goal “${g.title}” is at risk: ${g.risk.reasons.join('; ')}.`,
      source_type: 'goal',
      source_id: g.id,
    });
  }
  for (const g of s.overdue_goals) {
    out.push({
      title: `Re-plan the overdue goal “${g.title}”`,
      description:
        `The goal was due ${g.due_date} and is at ${g.progress}%. Decide whether to extend it with a ` +
        'realistic date and plan, or close it as done or failed.',
      assignee_user_id: g.owner_user_id,
      priority: g.days_overdue > 14 ? 'Urgent' : 'High',
      due_date: addDays(s.today, 3),
      llm_context: `Goal “${g.title}” was due ${g.due_date} (${g.days_overdue} days ago) and is only ${g.progress}% complete.`,
      source_type: 'goal',
      source_id: g.id,
    });
  }
  for (const t of s.unassigned_tasks) {
    const urgent = t.overdue || t.priority === 'High' || t.priority === 'Urgent';
    out.push({
      title: `Find an owner for “${t.title}”`,
      description:
        `Task “${t.title}” (${t.priority} priority, ${t.status}` +
        `${t.due_date ? `, ${t.overdue ? 'was due' : 'due'} ${t.due_date}` : ', no due date'}) has nobody ` +
        `assigned. Pick an owner and ${t.overdue || !t.due_date ? 'set a realistic due date' : 'confirm the due date'}.`,
      assignee_user_id: s.user.id,
      priority: urgent ? 'High' : 'Medium',
      due_date: addDays(s.today, 2),
      llm_context:
        `Task “${t.title}” is ${t.status} with ${t.priority} priority` +
        `${t.due_date ? `, due ${t.due_date}${t.overdue ? ' (overdue)' : ''}` : ''}, and is not assigned to anyone.`,
      source_type: 'task',
      source_id: t.id,
    });
  }
  return out;
}

/**
 * JSON `{"suggestions":[...]}` (ZModelSuggestion items): the candidates that are neither already
 * suggested (by source or title) nor an open task's title, at most `max`. Deterministic.
 */
export const taskSuggestionsHandler: OfflineHandler = ({ data }) => {
  const d = data as Partial<TaskSuggestionsData> | null;
  if (!d?.snapshot) return JSON.stringify({ suggestions: [] });
  const sources = new Set(d.exclude_source_keys ?? []);
  const titles = new Set(d.exclude_title_keys ?? []);
  const picked: TModelSuggestion[] = [];
  for (const c of suggestionCandidates(d.snapshot)) {
    if (picked.length >= (d.max ?? 10)) break;
    const key = suggestionTitleKey(c.title);
    if (sources.has(`${c.source_type}:${c.source_id}`) || titles.has(key)) continue;
    titles.add(key);
    picked.push(c);
  }
  return JSON.stringify({ suggestions: picked }, null, 2);
};
