import { plainText } from '../offline/prose.ts';

/** Shapes the built-in tools return; the offline engine's handlers read them back from the prompt. */

/** Entity types the internal search index holds ('file' rows are added by the files module). */
export type SearchEntityType = 'goal' | 'advice' | 'task' | 'note' | 'contact' | 'file';

export interface SearchHit {
  type: SearchEntityType | string;
  id: string;
  title: string;
  snippet: string;
}

export interface InternalSearchOutput {
  query: string;
  hits: SearchHit[];
}

export interface SnapshotKpi {
  name: string;
  current_value: number;
  target_value: number | null;
  unit: string | null;
  progress: number;
  /** the goals API's forecast: the check-ins' trend at the due date, null with fewer than two */
  forecast: { value_at_due: number; on_track: boolean } | null;
  /** a KPI of an at-risk goal below the line or forecast to miss (contract isKpiLagging) */
  lagging: boolean;
  /** the date of the latest check-in (the date of current_value), null without one */
  last_checkin_date: string | null;
  /** no check-in for KPI_STALE_DAYS days (the goals API's `stale`) */
  stale: boolean;
  /** the check-in before the latest: the trend a metric answer states */
  previous: { date: string; value: number } | null;
}

export interface SnapshotGoal {
  id: string;
  title: string;
  status: string;
  due_date: string;
  progress: number;
  /** the progress expected today on the straight line from the goal's start to its due date */
  expected_progress: number;
  /** the goals API's `risk`: at risk and why, with the figures every feature states */
  risk: { at_risk: boolean; reasons: string[] };
  overdue: boolean;
  kpis: SnapshotKpi[];
}

export interface SnapshotTask {
  id: string;
  title: string;
  priority: string;
  status: string;
  due_date: string | null;
}

export interface WorkspaceSnapshotOutput {
  today: string;
  goals: SnapshotGoal[];
  overdue_tasks: SnapshotTask[];
  open_tasks: SnapshotTask[];
  open_task_count: number;
  overdue_task_count: number;
  /** the caller's oldest pending inbox items (what waits for them), oldest first */
  waiting?: { title: string; since: string }[];
}

export interface WebSearchOutput {
  query: string;
  results: { title: string; url: string; snippet: string }[];
  error?: string;
}

export interface Source {
  type: string;
  id: string;
  title: string;
}

/** How a record is named in answers and source lists: Task “Prepare the board deck”. */
export const ENTITY_LABELS: Record<string, string> = {
  goal: 'Goal',
  advice: 'Advice',
  task: 'Task',
  note: 'Note',
  contact: 'Contact',
  file: 'File',
  web: 'Web',
};

export const sourceLabel = (s: { type: string; title: string }) =>
  `${ENTITY_LABELS[s.type] ?? s.type} “${s.title}”`;

/** When an answer names none of its records, this many of the best matches are cited. */
const UNNAMED_CITATIONS = 3;

/**
 * The records an answer cites: those it names, in the tools' order; when it names none,
 * the first few the tools returned. Never the whole list the tools gave (issue 47 item 2).
 */
export function sourcesNamedIn(text: string, sources: readonly Source[]): Source[] {
  // Quoted, or bare when long enough not to be found by chance (as citationsNamedIn does).
  const named = sources.filter((s) => {
    const title = s.title.trim();
    return title !== '' && (text.includes(`“${title}”`) || (title.length >= 4 && text.includes(title)));
  });
  return named.length > 0 ? named : sources.slice(0, UNNAMED_CITATIONS);
}

/** The records a set of tool results cites, de-duplicated, in the order they appear. */
export function sourcesOf(results: readonly { toolName: string; output: unknown }[]): Source[] {
  const seen = new Set<string>();
  const out: Source[] = [];
  const add = (s: Source) => {
    const key = `${s.type}:${s.id}`;
    if (!seen.has(key)) {
      seen.add(key);
      // A citation label is plain words: a stored title's markdown or JSON never reaches a chip.
      out.push({ ...s, title: plainText(s.title) || s.title });
    }
  };
  for (const r of results) {
    const o = r.output as Record<string, unknown> | null;
    if (!o || typeof o !== 'object') continue;
    if (r.toolName === 'internal_search' && Array.isArray(o.hits)) {
      for (const h of o.hits as SearchHit[]) add({ type: h.type, id: h.id, title: h.title });
    } else if (r.toolName === 'workspace_snapshot') {
      const s = o as unknown as WorkspaceSnapshotOutput;
      for (const g of s.goals ?? []) add({ type: 'goal', id: g.id, title: g.title });
      for (const t of [...(s.overdue_tasks ?? []), ...(s.open_tasks ?? [])])
        add({ type: 'task', id: t.id, title: t.title });
    } else if (r.toolName === 'web_search' && Array.isArray(o.results)) {
      for (const w of o.results as WebSearchOutput['results'])
        add({ type: 'web', id: w.url, title: w.title });
    }
  }
  return out;
}
