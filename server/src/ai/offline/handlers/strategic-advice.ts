import type { SnapshotKpi, WorkspaceSnapshot } from '../../context/workspace-snapshot.ts';
import { statusWords } from '../evidence.ts';
import { fmt, leadSentence, plainLines, plural, sentence } from '../prose.ts';
import { OFFLINE_NOTICE, type OfflineHandler } from '../types.ts';

/** What a review step put first: its first point, else its first sentence (plain text). */
function reviewFinding(output: string): string {
  const point = output.split('\n').find((l) => /^\s*(?:[-*+]|\d+[.)])\s+/.test(l));
  const body = plainLines(output).filter((l) => !/^(You asked about|Your answer\b)/.test(l));
  return leadSentence(point ?? body.join('\n'));
}

/**
 * Strategic advice from the workspace snapshot (`providerOptions.offline.data`), deterministic: the
 * first line is the advice title as a `# ` heading, then the conclusion (the largest gap), where the
 * workspace stands and what a flow's review step put first, then short sections naming the lagging
 * KPIs (largest gap first), the overdue goals and tasks, the unassigned work, the actions for this
 * week, and the sources.
 */

const MAX = 5;

function kpiValue(k: SnapshotKpi): string {
  const unit = k.unit ? ` ${k.unit}` : '';
  return `${fmt(k.current_value)} of ${fmt(k.target_value ?? 0)}${unit}`;
}

export function adviceTitle(s: WorkspaceSnapshot): string {
  const top = s.lagging_kpis[0];
  if (top) return `Close the gap on ${top.title}`;
  const risky = s.at_risk_goals[0];
  if (risky) return `Get “${risky.title}” back on track`;
  const overdue = s.overdue_goals[0];
  if (overdue) return `Re-plan the overdue goal “${overdue.title}”`;
  if (s.overdue_tasks.length) return `Clear ${plural(s.overdue_tasks.length, 'overdue task')}`;
  if (s.goals.length) return 'Stay the course on your strategic goals';
  return 'Set your first strategic goals';
}

/** The earlier steps of a flow as the advice prompt lists them ("### name" then the output). */
export function earlierStepsIn(prompt: string): { name: string; output: string }[] {
  const at = prompt.indexOf(EARLIER_HEADER);
  if (at < 0) return [];
  const body = prompt.slice(at + EARLIER_HEADER.length).replace(/\n+Write the strategic advice\.\s*$/, '');
  return body
    .split(/^### /m)
    .slice(1)
    .map((part) => {
      const [name, ...rest] = part.split('\n');
      return { name: name.trim(), output: rest.join('\n').trim() };
    })
    .filter((x) => x.name !== '' && x.output !== '');
}
const EARLIER_HEADER = 'Earlier steps of this flow:';

/** The conclusion first: the largest gap, else the most overdue goal or task, else the good news. */
function leadOf(s: WorkspaceSnapshot): string {
  const top = s.lagging_kpis[0];
  if (top)
    return (
      `The biggest gap is **${top.title}** on goal “${top.goal_title}”: ${kpiValue(top)}, ` +
      `${top.progress}% of target where ${top.expected_progress}% was expected by today.`
    );
  const risky = s.at_risk_goals[0];
  if (risky) return `Goal “${risky.title}” is at risk: ${risky.risk.reasons.join('; ')}.`;
  const og = s.overdue_goals[0];
  if (og) return `Goal “${og.title}” is ${plural(og.days_overdue, 'day')} overdue at ${og.progress}%.`;
  const ot = s.overdue_tasks[0];
  if (ot) return `Every KPI is on pace; the work that slipped is Task “${ot.title}”, due ${ot.due_date}.`;
  if (s.goals.length) return 'Every goal and KPI is on pace for its due date, and no work is overdue.';
  return 'There are no strategic goals to measure yet.';
}

/** "no open goals", "1 open goal", "3 open goals". */
const some = (n: number, one: string) => (n === 0 ? `no ${one}s` : plural(n, one));

function standing(s: WorkspaceSnapshot): string {
  const c = s.counts;
  const late = [
    c.overdue_tasks ? `${c.overdue_tasks} overdue` : '',
    c.unassigned_tasks ? `${c.unassigned_tasks} without an owner` : '',
  ].filter(Boolean);
  return (
    `As of ${s.today} you have ` +
    (c.goals
      ? `${plural(c.goals, 'open goal')} (${c.at_risk_goals ? `${c.at_risk_goals} at risk` : 'none at risk'}) with ${some(c.lagging_kpis, 'KPI')} behind plan, ${some(c.overdue_goals, 'overdue goal')} and `
      : 'no open goals and ') +
    `${some(c.open_tasks, 'open task')}` +
    `${late.length ? ` (${late.join(', ')})` : ''}.`
  );
}

export const strategicAdviceHandler: OfflineHandler = ({ data, lastUserText }) => {
  const s = data as WorkspaceSnapshot | null;
  if (!s || !Array.isArray(s.goals)) {
    return `# Strategic advice\n\n${OFFLINE_NOTICE}\n\nNo workspace data was available to analyse.`;
  }
  const lines: string[] = [`# ${adviceTitle(s)}`, '', OFFLINE_NOTICE, '', leadOf(s), '', standing(s)];
  const review = earlierStepsIn(lastUserText).at(-1);
  if (review)
    lines.push(`The review (“${review.name}”) put this first: ${sentence(reviewFinding(review.output))}`);
  lines.push('');

  if (s.at_risk_goals.length) {
    // The goals API's reasons, word for word: the Brief and task suggestions state the same.
    lines.push('## Goals at risk', '');
    for (const g of s.at_risk_goals.slice(0, MAX))
      lines.push(`- Goal “${g.title}”: ${g.risk.reasons.join('; ')}.`);
    lines.push('');
  }

  if (s.lagging_kpis.length) {
    lines.push('## KPI gaps', '');
    for (const k of s.lagging_kpis.slice(0, MAX)) {
      const gap = k.expected_progress - k.progress;
      // A KPI on the line today can still lag: its forecast misses the target.
      const why =
        gap > 0 || !k.forecast
          ? `${k.progress}% of target against ${k.expected_progress}% expected by today — a ${gap}-point gap.`
          : `${k.progress}% of target, forecast at ${fmt(k.forecast.value_at_due)} by the due date.`;
      lines.push(`- **${k.title}** (goal “${k.goal_title}”): ${kpiValue(k)}, ${why}`);
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
    lines.push('## Open work', '');
    const shown = [...s.overdue_tasks, ...s.open_tasks.filter((t) => !t.overdue)].slice(0, MAX);
    for (const t of shown) {
      const due = t.due_date ? `${t.overdue ? 'overdue since' : 'due'} ${t.due_date}` : 'no due date';
      lines.push(
        `- Task “${t.title}” — ${t.priority} priority, ${statusWords(t.status)}, ${due}${t.unassigned ? ', no owner yet' : ''}.`,
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
      s.overdue_tasks.length === 1
        ? `Finish or re-date the overdue Task “${s.overdue_tasks[0].title}”.`
        : `Clear the ${plural(s.overdue_tasks.length, 'overdue task')}, starting with Task “${s.overdue_tasks[0].title}”.`,
    );
  }
  if (s.unassigned_tasks.length) {
    recs.push(
      s.unassigned_tasks.length === 1
        ? `Give Task “${s.unassigned_tasks[0].title}” an owner.`
        : `Assign owners to the ${plural(s.unassigned_tasks.length, 'unassigned task')}, starting with Task “${s.unassigned_tasks[0].title}”.`,
    );
  }
  if (!s.goals.length)
    recs.push('Define two or three strategic goals with measurable KPIs in the Strategy Center.');
  if (!recs.length) recs.push('Keep the current cadence: every goal is on pace and no work is overdue.');
  lines.push('## What to do this week', '', ...recs.map((r, i) => `${i + 1}. ${r}`), '');

  const sources = [
    ...s.at_risk_goals.slice(0, MAX).map((g) => `Goal “${g.title}”`),
    ...s.lagging_kpis.slice(0, MAX).map((k) => `KPI “${k.title}” of goal “${k.goal_title}”`),
    ...s.overdue_goals.slice(0, MAX).map((g) => `Goal “${g.title}”`),
    ...[...s.overdue_tasks, ...s.unassigned_tasks].slice(0, MAX).map((t) => `Task “${t.title}”`),
    ...s.notes.slice(0, 3).map((n) => `Note “${n.title}” (${n.entry_date})`),
  ];
  if (sources.length) lines.push('## Sources', '', ...[...new Set(sources)].map((x) => `- ${x}`));
  return lines.join('\n').trimEnd();
};
