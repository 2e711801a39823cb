import type {
  InternalSearchOutput,
  SearchHit,
  SnapshotGoal,
  SnapshotTask,
  WebSearchOutput,
  WorkspaceSnapshotOutput,
} from '../tools/types.ts';
import { sourceLabel } from '../tools/types.ts';
import { clip, fmt, pct, plainLines, plainText, plural, sentence } from './prose.ts';
import type { OfflineToolResult } from './types.ts';

/**
 * The grounding tools' results as facts the handlers can write with: each fact is one finished
 * sentence naming its record, the action it calls for (when it calls for one) and how pressing it is.
 */
export interface Fact {
  /** e.g. Task “Prepare the board deck” (High priority) was due 2020-01-15. */
  text: string;
  /** e.g. Finish or re-date Task “Prepare the board deck” (was due 2020-01-15). */
  action: string | null;
  /** The record it names, e.g. Task “Prepare the board deck” (key for de-duplication). */
  source: string;
  /** Higher is more pressing: overdue goals, then lagging KPIs and overdue tasks. */
  urgency: number;
}

export interface Evidence {
  snapshot: WorkspaceSnapshotOutput | null;
  search: InternalSearchOutput | null;
  web: WebSearchOutput | null;
}

export function evidenceOf(results: readonly OfflineToolResult[]): Evidence {
  const ev: Evidence = { snapshot: null, search: null, web: null };
  for (const r of results) {
    const o = r.output as Record<string, unknown> | null;
    if (!o || typeof o !== 'object') continue;
    if (r.toolName === 'workspace_snapshot' && Array.isArray(o.goals))
      ev.snapshot = o as unknown as WorkspaceSnapshotOutput;
    if (r.toolName === 'internal_search' && Array.isArray(o.hits)) {
      // Titles are stored text (a note's first line, a contact's JSON): plain words in every answer.
      const search = o as unknown as InternalSearchOutput;
      ev.search = { ...search, hits: search.hits.map((h) => ({ ...h, title: plainText(h.title) })) };
    }
    if (r.toolName === 'web_search') ev.web = o as unknown as WebSearchOutput;
  }
  return ev;
}

const HIGH = new Set(['High', 'Urgent']);

/**
 * A goal as one sentence: when the goals API says it is at risk, its reasons with their figures (the
 * same words the Brief and advice use); else where it stands against the straight line.
 */
export function goalFact(g: SnapshotGoal): Fact {
  const source = `Goal “${g.title}”`;
  const lag = g.kpis.filter((k) => k.lagging).sort((a, b) => a.progress - b.progress)[0];
  const when = g.overdue ? `was due ${g.due_date}` : `is due ${g.due_date}`;
  const risk = g.risk ?? { at_risk: false, reasons: [] };
  // The lagging KPI's own figures, unless a reason already names it.
  const kpi =
    lag && !risk.reasons.some((r) => r.includes(`“${lag.name}”`))
      ? `; its KPI ${lag.name} is behind at ${fmt(lag.current_value)} of ${fmt(lag.target_value ?? 0)}` +
        `${lag.unit ? ` ${lag.unit}` : ''} (${pct(lag.progress)})`
      : '';
  const text = risk.at_risk
    ? `${source} is at risk: ${risk.reasons.join('; ')}${kpi}.`
    : `${source} is ${pct(g.progress)} complete (${pct(g.expected_progress)} expected by today) and ${when}.`;
  const action = g.overdue
    ? `Re-plan ${source}: set a realistic date or close it (it was due ${g.due_date}).`
    : lag
      ? `Agree the actions that move ${lag.name} for ${source}, now ${pct(lag.progress)} of target.`
      : risk.at_risk
        ? `Bring the KPIs of ${source} up to date and review its plan.`
        : null;
  return { text, action, source, urgency: g.overdue ? 4 : risk.at_risk ? 3 : 0 };
}

/** A task status as words inside a sentence: "not started", "in progress", "blocked". */
const STATUS_WORDS: Record<string, string> = {
  'To Do': 'not started',
  Pending: 'pending',
  'In Progress': 'in progress',
  Review: 'in review',
  Bottleneck: 'blocked',
};
export const statusWords = (status: string) => STATUS_WORDS[status] ?? status.toLowerCase();

export function taskFact(t: SnapshotTask, overdue: boolean): Fact {
  const source = `Task “${t.title}”`;
  const text = overdue
    ? `${source} is overdue: it was due ${t.due_date} and is still ${statusWords(t.status)} (${t.priority} priority).`
    : `${source} is ${statusWords(t.status)}, ${t.priority} priority, ${t.due_date ? `due ${t.due_date}` : 'with no due date'}.`;
  return {
    text,
    action: overdue ? `Finish or re-date ${source}, which was due ${t.due_date}.` : null,
    source,
    urgency: (overdue ? 2 : 0) + (HIGH.has(t.priority) ? 1 : 0),
  };
}

/** A search hit's snippet as plain text (bodies are often markdown), without repeating the title. */
export function hitSnippet(h: SearchHit): string {
  const text = plainLines(h.snippet ?? '')
    .map(plainText)
    .filter(Boolean)
    .map(sentence)
    .join(' ');
  return text && text !== h.title ? clip(text, 160) : '';
}

/** A search hit as a fact, with the snapshot's details when the hit is a goal or task it holds. */
export function hitFact(h: SearchHit, snapshot: WorkspaceSnapshotOutput | null): Fact {
  if (snapshot && h.type === 'goal') {
    const g = snapshot.goals.find((x) => x.id === h.id);
    if (g) return goalFact(g);
  }
  if (snapshot && h.type === 'task') {
    const overdue = snapshot.overdue_tasks.find((x) => x.id === h.id);
    const t = overdue ?? snapshot.open_tasks.find((x) => x.id === h.id);
    if (t) return taskFact(t, Boolean(overdue));
  }
  const source = sourceLabel(h);
  const snippet = hitSnippet(h);
  // A record without text is named as it is: a bare name reads better in a list than "Name.".
  return { text: snippet ? sentence(`${source}: ${snippet}`) : source, action: null, source, urgency: 0 };
}

/** What the snapshot says, most pressing first: overdue goals, lagging KPIs, overdue tasks, the rest. */
export function snapshotFacts(s: WorkspaceSnapshotOutput): Fact[] {
  const overdueIds = new Set(s.overdue_tasks.map((t) => t.id));
  const facts = [
    ...s.goals.map(goalFact),
    ...s.overdue_tasks.map((t) => taskFact(t, true)),
    ...s.open_tasks.filter((t) => !overdueIds.has(t.id)).map((t) => taskFact(t, false)),
  ];
  // A stable sort keeps the snapshot's own order (due date) within one level of urgency.
  return facts
    .map((f, i) => ({ f, i }))
    .sort((a, b) => b.f.urgency - a.f.urgency || a.i - b.i)
    .map((x) => x.f);
}

/** "(2 overdue)", "(all overdue)", ", which is overdue" for a count out of a total. */
function share(count: number, total: number, what: string): string {
  if (!count) return '';
  if (count < total) return ` (${count} ${what})`;
  return total === 1 ? `, which is ${what}` : ` (all ${what})`;
}

/** One sentence on the state of the workspace: counts, and how many of them are late. */
export function snapshotSummary(s: WorkspaceSnapshotOutput): string {
  const atRisk = s.goals.filter((g) => g.risk?.at_risk).length;
  const goals = s.goals.length
    ? `${plural(s.goals.length, 'open goal')}${share(atRisk, s.goals.length, 'at risk')}`
    : 'no open goals';
  const tasks = s.open_task_count
    ? `${plural(s.open_task_count, 'open task')}${share(s.overdue_task_count, s.open_task_count, 'overdue')}`
    : 'no open tasks';
  return `As of ${s.today} you have ${goals}, and ${tasks}.`;
}

export function webFact(r: WebSearchOutput['results'][number]): Fact {
  const snippet = r.snippet ? `: ${clip(r.snippet, 160)}` : '';
  return { text: sentence(`[${r.title}](${r.url})${snippet}`), action: null, source: r.title, urgency: 0 };
}
