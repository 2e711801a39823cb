import {
  BRIEF_NOT_ENOUGH_DATA,
  type TBriefItem,
  type TBriefSection,
  type TBriefSectionKey,
  type TCitation,
  citationUrl,
  dayText,
  type TGoalRisk,
  withDayTexts,
  withUnit,
} from '@cc/contract';

/**
 * The brief's facts, computed in code from what the person may see (briefs.sources.ts reads it through
 * the domain services). Pure: the same input gives the same sections, so a test can state them exactly.
 * Every number a section states is written with {@link num}, so the summary check compares like with like.
 */

export const REPLY_AFTER_HOURS = 24;
const DAY_MS = 86_400_000;

export const SECTION_TITLES: Record<TBriefSectionKey, string> = {
  kpi_moves: 'KPI moves since the previous brief',
  goals_at_risk: 'Goals at risk',
  my_tasks: 'Your overdue and High/Urgent tasks',
  items_waiting: 'Waiting for you',
  comms_waiting: 'Threads awaiting your reply',
  runs_failed: 'Runs that failed',
  why_it_moved: 'Why it moved',
};

export interface FactKpi {
  id: string;
  name: string;
  current_value: number;
  target_value: number | null;
  unit: string | null;
}
export interface FactGoal {
  id: string;
  title: string;
  due_date: string;
  created_at: string;
  /** The goals API's progress and risk (contract goal-numbers.ts): the Brief computes neither. */
  progress: number;
  risk: TGoalRisk;
  kpis: FactKpi[];
}
export interface FactCheckin {
  kpi_id: string;
  value: number;
  date: string;
  created_at: string;
}
export interface FactTask {
  id: string;
  title: string;
  priority: string;
  due_date: string | null;
}
export interface FactWaiting {
  citation: TCitation;
  /** e.g. Run “Board prep” asks: Which quarter? */
  text: string;
}
export interface FactThread {
  id: string;
  sender_name: string;
  created_at: string;
}
/** A run of the person that ended failed in the period, and why (its run page says the same). */
export interface FactFailedRun {
  id: string;
  kind: 'flow' | 'crew';
  title: string;
  reason: string;
  url: string;
}
export interface FactEvidence {
  goal_id: string;
  tasks: { id: string; title: string }[];
  runs: { id: string; title: string; url: string }[];
  messages: { thread_id: string; sender_name: string }[];
}

export interface FactInput {
  now: Date;
  period_start: string;
  period_end: string;
  goals: FactGoal[];
  /** Check-ins of the goals' KPIs around the period (those created before it give the baseline). */
  checkins: FactCheckin[];
  tasks: FactTask[];
  waiting: FactWaiting[];
  /** How many items wait in all (the inbox's total; `waiting` is its first page). */
  waiting_total: number;
  threads: FactThread[];
  /** The person's runs that failed in the period, first failed first. */
  failed_runs: FactFailedRun[];
  /** For each goal that moved (see {@link movedGoalIds}). */
  evidence: FactEvidence[];
}

/** 1234.5 → "1234.5", 3 → "3", 0.333333 → "0.33": no thousands separators, at most two decimals. */
export function num(n: number): string {
  return String(Math.round(n * 100) / 100);
}

export const cite = {
  goal: (g: { id: string; title: string }): TCitation => ({
    type: 'goal',
    id: g.id,
    title: g.title,
    url: citationUrl('goal', g.id),
  }),
  kpi: (k: { id: string; name: string }, goalId: string): TCitation => ({
    type: 'kpi',
    id: k.id,
    title: k.name,
    url: `/app/strategy?goal=${encodeURIComponent(goalId)}`,
  }),
  task: (t: { id: string; title: string }): TCitation => ({
    type: 'task',
    id: t.id,
    title: t.title,
    url: citationUrl('task', t.id),
  }),
  thread: (id: string, title: string): TCitation => ({
    type: 'thread',
    id,
    title,
    url: citationUrl('thread', id),
  }),
};

const dateOf = (iso: string) => iso.slice(0, 10);
const daysBetween = (from: string, to: string) =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);
const plural = (n: number, one: string, many = `${one}s`) => `${num(n)} ${n === 1 ? one : many}`;

interface KpiMove {
  goal: FactGoal;
  kpi: FactKpi;
  from: number | null;
  to: number;
}

/** Per KPI: the last value before the period (or the first in it) and the last value in it. */
export function kpiMoves(input: FactInput): KpiMove[] {
  const byKpi = new Map<string, FactCheckin[]>();
  for (const c of input.checkins) byKpi.set(c.kpi_id, [...(byKpi.get(c.kpi_id) ?? []), c]);
  const moves: KpiMove[] = [];
  for (const goal of input.goals) {
    for (const kpi of goal.kpis) {
      const all = (byKpi.get(kpi.id) ?? []).sort(
        (a, b) => a.date.localeCompare(b.date) || a.created_at.localeCompare(b.created_at),
      );
      const inPeriod = all.filter(
        (c) => c.created_at >= input.period_start && c.created_at < input.period_end,
      );
      if (!inPeriod.length) continue;
      const before = all.filter((c) => c.created_at < input.period_start).at(-1);
      const last = inPeriod.at(-1) as FactCheckin;
      const baseline = before ?? (inPeriod.length > 1 ? inPeriod[0] : null);
      moves.push({ goal, kpi, from: baseline ? baseline.value : null, to: last.value });
    }
  }
  return moves;
}

/** The goals one of whose KPIs changed value in the period. */
export function movedGoalIds(input: FactInput): string[] {
  return [
    ...new Set(
      kpiMoves(input)
        .filter((m) => m.from !== null && m.from !== m.to)
        .map((m) => m.goal.id),
    ),
  ];
}

function moveText(m: KpiMove): string {
  // A figure and its unit as the goals module writes them ("1 customer", "40 k€").
  const figure = (n: number) => withUnit(n, m.kpi.unit);
  const target = m.kpi.target_value !== null ? ` (target ${figure(m.kpi.target_value)})` : '';
  const head = `KPI “${m.kpi.name}” of goal “${m.goal.title}”`;
  if (m.from === null) return `${head} was first checked in at ${figure(m.to)}${target}.`;
  if (m.from === m.to) return `${head} held at ${figure(m.to)}${target}.`;
  const delta = m.to - m.from;
  const sign = delta > 0 ? 'up' : 'down';
  return `${head} moved from ${num(m.from)} to ${figure(m.to)}, ${sign} ${num(Math.abs(delta))}${target}.`;
}

/** The KPIs a goal's risk reasons name (KPI “name” …), to cite beside the goal. */
const namedKpis = (goal: FactGoal) =>
  goal.kpis.filter((k) => goal.risk.reasons.some((r) => r.startsWith(`KPI “${k.name}”`)));

/**
 * The goals the goals module says are at risk, soonest due first, each with its reasons as the API
 * states them, so the Brief names the same goals with the same figures as every other feature.
 */
function riskItems(input: FactInput): TBriefItem[] {
  return [...input.goals]
    .filter((g) => g.risk.at_risk)
    .sort((a, b) => a.due_date.localeCompare(b.due_date) || a.id.localeCompare(b.id))
    .map((goal) => ({
      // The goals module's reasons, with their days written as the brief writes every day.
      text: `Goal “${goal.title}” (due ${dayText(goal.due_date)}) is at risk: ${withDayTexts(goal.risk.reasons.join('; '))}.`,
      citations: [cite.goal(goal), ...namedKpis(goal).map((k) => cite.kpi(k, goal.id))],
    }));
}

function taskItems(input: FactInput, today: string): TBriefItem[] {
  return input.tasks.map((t) => {
    const overdue = t.due_date !== null && t.due_date < today;
    const when = overdue
      ? `was due ${dayText(t.due_date as string)} (${plural(daysBetween(t.due_date as string, today), 'day')} overdue)`
      : t.due_date
        ? `is due ${dayText(t.due_date)}`
        : 'has no due date';
    return { text: `Task “${t.title}” (${t.priority}) ${when}.`, citations: [cite.task(t)] };
  });
}

function threadItems(input: FactInput): TBriefItem[] {
  return input.threads.map((th) => {
    const hours = Math.floor((input.now.getTime() - Date.parse(th.created_at)) / 3_600_000);
    const age = hours >= 48 ? plural(Math.floor(hours / 24), 'day') : plural(hours, 'hour');
    return {
      text: `${th.sender_name} wrote ${age} ago and is waiting for your reply.`,
      citations: [cite.thread(th.id, `Conversation with ${th.sender_name}`)],
    };
  });
}

function whyItems(input: FactInput): TBriefItem[] {
  const goals = new Map(input.goals.map((g) => [g.id, g]));
  return input.evidence.flatMap((e) => {
    const goal = goals.get(e.goal_id);
    if (!goal) return [];
    const threads = new Map<string, string>();
    for (const m of e.messages) if (!threads.has(m.thread_id)) threads.set(m.thread_id, m.sender_name);
    // Only what happened: a goal whose KPI moved with no task, run or message behind it explains nothing.
    const parts = [
      e.tasks.length ? `${plural(e.tasks.length, 'task')} done` : null,
      e.runs.length ? `${plural(e.runs.length, 'run')} finished` : null,
      e.messages.length ? `${plural(e.messages.length, 'message')} exchanged` : null,
    ].filter((p): p is string => p !== null);
    if (!parts.length) return [];
    const text = `Goal “${goal.title}”: ${parts.join(', ')} in the period.`;
    const citations: TCitation[] = [
      cite.goal(goal),
      ...e.tasks.map(cite.task),
      ...e.runs.map((r) => ({ type: 'run', id: r.id, title: r.title, url: r.url })),
      ...[...threads].map(([id, name]) => cite.thread(id, `Conversation with ${name}`)),
    ];
    return [{ text, citations }];
  });
}

/** `Flow “X” failed: reason.`: a failed run is never absent from the brief nor counted as finished. */
function failedRunItems(input: FactInput): TBriefItem[] {
  return input.failed_runs.map((r) => ({
    text: `${r.kind === 'crew' ? 'Crew' : 'Flow'} “${r.title}” failed: ${r.reason.replace(/\.$/, '')}.`,
    citations: [{ type: 'run', id: r.id, title: r.title, url: r.url }],
  }));
}

const section = (key: TBriefSectionKey, items: TBriefItem[], empty: string | null): TBriefSection =>
  items.length
    ? { key, title: SECTION_TITLES[key], enough_data: true, items }
    : empty === null
      ? {
          key,
          title: SECTION_TITLES[key],
          enough_data: false,
          items: [{ text: BRIEF_NOT_ENOUGH_DATA, citations: [] }],
        }
      : { key, title: SECTION_TITLES[key], enough_data: true, items: [{ text: empty, citations: [] }] };

/**
 * The sections. Sections computed from goals and KPIs say "Not enough data" when there is nothing
 * to compute from (no check-in in the period, no open goal); the lists of the person's own work say
 * plainly that they are empty (an empty list is a fact, not thin data). "Why it moved" is left out
 * when no goal moved with a task, run or message behind it.
 */
export function buildSections(input: FactInput): TBriefSection[] {
  const today = dateOf(input.now.toISOString());
  const moves = kpiMoves(input);
  const risks = riskItems(input);
  const why = whyItems(input);
  const failed = failedRunItems(input);
  return [
    section(
      'kpi_moves',
      moves.map((m) => ({ text: moveText(m), citations: [cite.kpi(m.kpi, m.goal.id), cite.goal(m.goal)] })),
      null,
    ),
    section('goals_at_risk', risks, input.goals.length ? 'No goal is at risk.' : null),
    section('my_tasks', taskItems(input, today), 'No overdue or High/Urgent tasks.'),
    section('items_waiting', waitingItems(input), 'Nothing is waiting for you.'),
    section('comms_waiting', threadItems(input), 'No thread is waiting for your reply.'),
    // Said only when a run failed: a quiet period needs no "no run failed" line.
    ...(failed.length ? [section('runs_failed', failed, null)] : []),
    // Said only when something moved and something is behind it: never "0 tasks done, 0 runs …".
    ...(why.length ? [section('why_it_moved', why, null)] : []),
  ];
}

/** The inbox's first page as it lists it, and the rest counted as the inbox counts it. */
function waitingItems(input: FactInput): TBriefItem[] {
  const items = input.waiting.map((w) => ({ text: w.text, citations: [w.citation] }));
  const more = input.waiting_total - input.waiting.length;
  if (more > 0) {
    items.push({
      text: `${plural(more, 'more item')} ${more === 1 ? 'waits' : 'wait'} in your inbox.`,
      citations: [],
    });
  }
  return items;
}
