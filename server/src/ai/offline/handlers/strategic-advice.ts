import type { SnapshotKpi, WorkspaceSnapshot } from '../../context/workspace-snapshot.ts';
import { OFFLINE_NOTICE, type OfflineHandler } from '../types.ts';

/**
 * Strategic advice from the workspace snapshot (`providerOptions.offline.data`), deterministic: the
 * first line is the advice title as a `# ` heading, then markdown that names the lagging KPIs (largest
 * gap first), the overdue goals and tasks, the unassigned work, recommendations, and the sources.
 */

const fmt = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(2).replace(/\.?0+$/, ''));
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const MAX = 5;

function kpiValue(k: SnapshotKpi): string {
  const unit = k.unit ? ` ${k.unit}` : '';
  return `${fmt(k.current_value)} of ${fmt(k.target_value ?? 0)}${unit}`;
}

export function adviceTitle(s: WorkspaceSnapshot): string {
  const top = s.lagging_kpis[0];
  if (top) return `Close the gap on ${top.title}`;
  const overdue = s.overdue_goals[0];
  if (overdue) return `Re-plan the overdue goal “${overdue.title}”`;
  if (s.overdue_tasks.length) return `Clear ${plural(s.overdue_tasks.length, 'overdue task')}`;
  if (s.goals.length) return 'Stay the course on your strategic goals';
  return 'Set your first strategic goals';
}

export const strategicAdviceHandler: OfflineHandler = ({ data }) => {
  const s = data as WorkspaceSnapshot | null;
  if (!s || !Array.isArray(s.goals)) {
    return `# Strategic advice\n\n${OFFLINE_NOTICE}\n\nNo workspace data was available to analyse.`;
  }
  const c = s.counts;
  const lines: string[] = [`# ${adviceTitle(s)}`, '', OFFLINE_NOTICE, ''];

  lines.push('## Where you stand', '');
  lines.push(
    `As of ${s.today} you have ${plural(c.goals, 'open goal')}, ${plural(c.lagging_kpis, 'lagging KPI')}, ` +
      `${plural(c.overdue_goals, 'overdue goal')} and ${plural(c.open_tasks, 'open task')} ` +
      `(${c.overdue_tasks} overdue, ${c.unassigned_tasks} unassigned).`,
    '',
  );

  if (s.lagging_kpis.length) {
    lines.push('## KPI gaps', '');
    for (const k of s.lagging_kpis.slice(0, MAX)) {
      lines.push(
        `- **${k.title}** (goal “${k.goal_title}”): ${kpiValue(k)}, ${k.progress}% of target against ` +
          `${k.expected_progress}% expected by today — a ${k.expected_progress - k.progress}-point gap.`,
      );
    }
    lines.push('');
  } else if (s.goals.length) {
    lines.push('## KPI gaps', '', 'Every KPI with a target is on pace for its due date.', '');
  }

  if (s.overdue_goals.length) {
    lines.push('## Overdue goals', '');
    for (const g of s.overdue_goals.slice(0, MAX)) {
      lines.push(
        `- Goal “${g.title}” was due ${g.due_date} (${plural(g.days_overdue, 'day')} ago) and is at ${g.progress}%.`,
      );
    }
    lines.push('');
  }

  if (s.open_tasks.length) {
    lines.push('## Open tasks', '');
    const shown = [...s.overdue_tasks, ...s.open_tasks.filter((t) => !t.overdue)].slice(0, MAX);
    for (const t of shown) {
      const due = t.due_date ? `due ${t.due_date}${t.overdue ? ', **overdue**' : ''}` : 'no due date';
      lines.push(
        `- Task “${t.title}” — ${t.priority}, ${t.status}, ${due}${t.unassigned ? ', unassigned' : ''}.`,
      );
    }
    lines.push('');
  }

  const recs: string[] = [];
  const top = s.lagging_kpis[0];
  if (top) {
    recs.push(
      `Make **${top.title}** the focus of this week: it is the largest gap (goal “${top.goal_title}”). ` +
        'Name one owner, agree the two or three actions that move it, and review it weekly.',
    );
  }
  for (const k of s.lagging_kpis.slice(1, 3)) {
    recs.push(`Put a recovery plan on **${k.title}** (${k.progress}% vs ${k.expected_progress}% expected).`);
  }
  const og = s.overdue_goals[0];
  if (og)
    recs.push(
      `Re-plan or close the overdue goal “${og.title}”: set a realistic date or mark it done or failed.`,
    );
  if (s.overdue_tasks.length) {
    recs.push(
      `Clear the ${plural(s.overdue_tasks.length, 'overdue task')}, starting with “${s.overdue_tasks[0].title}”.`,
    );
  }
  if (s.unassigned_tasks.length) {
    recs.push(
      `Assign owners to the ${plural(s.unassigned_tasks.length, 'unassigned task')}, starting with “${s.unassigned_tasks[0].title}”.`,
    );
  }
  if (!s.goals.length)
    recs.push('Define two or three strategic goals with measurable KPIs in the Strategy Center.');
  if (!recs.length) recs.push('Keep the current cadence: every goal is on pace and no work is overdue.');
  lines.push('## Recommendations', '', ...recs.map((r, i) => `${i + 1}. ${r}`), '');

  const sources = [
    ...s.lagging_kpis.slice(0, MAX).map((k) => `KPI “${k.title}” of goal “${k.goal_title}”`),
    ...s.overdue_goals.slice(0, MAX).map((g) => `Goal “${g.title}”`),
    ...[...s.overdue_tasks, ...s.unassigned_tasks].slice(0, MAX).map((t) => `Task “${t.title}”`),
    ...s.notes.slice(0, 3).map((n) => `Note “${n.title}” (${n.entry_date})`),
  ];
  if (sources.length) lines.push('## Sources', '', ...[...new Set(sources)].map((x) => `- ${x}`));
  return lines.join('\n').trimEnd();
};
