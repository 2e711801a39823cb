import { citationUrl, type TRecordCitation } from '@cc/contract';
import { contactCitations } from '../modules/contacts/contacts.service.ts';
import { goalCitations } from '../modules/goals/goals.service.ts';
import { visibleNoteIds } from '../modules/journals/journals.service.ts';
import { taskCitations } from '../modules/tasks/tasks.service.ts';
import type { AppContext } from '../platform/context.ts';
import type { ViewerScope } from '../platform/viewer.ts';
import type { WorkspaceSnapshot } from './context/workspace-snapshot.ts';
import type { Source } from './tools/types.ts';

/** At most this many records are cited under one answer (the offline engine names as many). */
export const MAX_CITATIONS = 12;

/**
 * The citations of an AI output from the records its tools returned (issue 20 §3). The tools run with
 * the caller's rights (internal search and the workspace snapshot apply the domain policies), so every
 * record here is one the caller may see; nothing else is ever cited.
 */
export function citationsOf(sources: readonly Source[]): TRecordCitation[] {
  return sources.slice(0, MAX_CITATIONS).map((s) => ({
    type: s.type,
    id: s.id,
    title: s.title,
    url: citationUrl(s.type, s.id),
  }));
}

/** The stored JSON of a list of citations, read back; anything malformed reads as none. */
export function parseCitations(json: string | null | undefined): TRecordCitation[] {
  if (!json) return [];
  try {
    const v = JSON.parse(json);
    return Array.isArray(v) ? (v as TRecordCitation[]) : [];
  } catch {
    return [];
  }
}

/**
 * Of these citations, those the viewer may see now, in their order (issue 20 §3): goals and tasks by
 * their policies (with their current titles), contacts by theirs, notes only by their owner, web pages
 * and the thread an output was made for always; any other kind is left out. An output shared with others (advice filed under an organization) is read through
 * this, so a reader never sees a citation of a record hidden from them.
 */
export async function visibleCitations(
  ctx: AppContext,
  viewer: ViewerScope,
  citations: readonly TRecordCitation[],
): Promise<TRecordCitation[]> {
  if (citations.length === 0) return [];
  const ids = (type: string) => [...new Set(citations.filter((c) => c.type === type).map((c) => c.id))];
  const [goals, tasks, notes, contacts] = await Promise.all([
    goalCitations(ctx, viewer, { goalIds: ids('goal'), kpiIds: [] }),
    taskCitations(ctx, viewer, ids('task')),
    visibleNoteIds(ctx, viewer, ids('note')),
    contactCitations(ctx, viewer, ids('contact')),
  ]);
  return citations.flatMap((c) => {
    if (c.type === 'goal') return goals.get(`goal:${c.id}`) ?? [];
    if (c.type === 'task') return tasks.get(c.id) ?? [];
    if (c.type === 'note') return notes.has(c.id) ? [c] : [];
    if (c.type === 'contact') return contacts.get(c.id) ?? [];
    // A thread is cited only by the output made for it, read by a participant (its route checks).
    if (c.type === 'thread') return [c];
    if (c.type === 'web') return [c];
    return [];
  });
}

/**
 * The snapshot's records an AI text names by title (a KPI cites its goal), in the snapshot's order:
 * what generated advice used. Titles shorter than 4 characters are not matched (too easily found by
 * chance).
 */
export function citationsNamedIn(text: string, snapshot: WorkspaceSnapshot): TRecordCitation[] {
  const named = (title: string) => title.trim().length >= 4 && text.includes(title.trim());
  const out = new Map<string, TRecordCitation>();
  const add = (type: string, id: string, title: string) => {
    if (!out.has(`${type}:${id}`)) out.set(`${type}:${id}`, { type, id, title, url: citationUrl(type, id) });
  };
  for (const g of snapshot.goals) {
    if (named(g.title) || g.kpis.some((k) => named(k.title))) add('goal', g.id, g.title);
  }
  for (const k of snapshot.lagging_kpis) if (named(k.title)) add('goal', k.goal_id, k.goal_title);
  for (const t of [...snapshot.overdue_tasks, ...snapshot.open_tasks, ...snapshot.unassigned_tasks]) {
    if (named(t.title)) add('task', t.id, t.title);
  }
  for (const n of snapshot.notes) if (named(n.title)) add('note', n.id, n.title);
  return [...out.values()].slice(0, MAX_CITATIONS);
}
