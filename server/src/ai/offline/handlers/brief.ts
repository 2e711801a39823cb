import type { TBriefSection } from '@cc/contract';
import type { OfflineHandler } from '../types.ts';

/** What the briefs module passes in `providerOptions.offline.data`: the facts, already computed. */
export interface BriefWordsData {
  sections: TBriefSection[];
}

/** An action the writer proposes: its words and the fact ("<section>:<item index>") it acts on. */
export interface BriefActionRef {
  text: string;
  ref: string;
}

/** Sections whose items call for the person to act, most pressing first. */
const ACTION_ORDER = ['goals_at_risk', 'runs_failed', 'my_tasks', 'items_waiting', 'comms_waiting'] as const;

const VERB: Record<string, (title: string) => string> = {
  goal: (t) => `Review the plan of goal “${t}”`,
  kpi: (t) => `Check in KPI “${t}”`,
  task: (t) => `Finish or re-date task “${t}”`,
  inbox: (t) => `Decide on “${t}” in your inbox`,
  thread: (t) => `Reply in ${t}`,
  run: (t) => `See why run “${t}” failed`,
};

/**
 * The top three actions, from the facts alone: the first items of the sections that call for action,
 * taken in turn (one per section before a second from any), worded from the record they cite.
 */
export function actionsFromFacts(sections: readonly TBriefSection[], max = 3): BriefActionRef[] {
  const queues = ACTION_ORDER.map((key) => {
    const s = sections.find((x) => x.key === key);
    return (s?.items ?? []).flatMap((item, i) =>
      item.citations.length ? [{ item, ref: `${key}:${i}` }] : [],
    );
  });
  const out: BriefActionRef[] = [];
  for (let round = 0; out.length < max && queues.some((q) => q.length > round); round++) {
    for (const q of queues) {
      const next = q[round];
      if (!next || out.length >= max) continue;
      const c = next.item.citations[0];
      out.push({ text: `${(VERB[c.type] ?? ((t: string) => `Open “${t}”`))(c.title)}.`, ref: next.ref });
    }
  }
  return out;
}

/** Items that state a fact (a placeholder such as "Nothing is waiting for you." cites nothing). */
const factsOf = (s: TBriefSection | undefined) =>
  s?.enough_data ? s.items.filter((i) => i.citations.length) : [];

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * The offline engine's brief: a short summary that counts what each section found and names the most
 * pressing fact word for word, and the top three actions. Every number it writes is a count of a
 * section's items or a number of a fact's text, so the briefs module's number check passes.
 */
export const briefHandler: OfflineHandler = ({ data }) => {
  const sections = (data as BriefWordsData | null)?.sections ?? [];
  const get = (key: string) => sections.find((s) => s.key === key);
  const parts = [
    [factsOf(get('kpi_moves')).length, 'KPI moved', 'KPIs moved'],
    [factsOf(get('goals_at_risk')).length, 'goal is at risk', 'goals are at risk'],
    [factsOf(get('runs_failed')).length, 'run failed', 'runs failed'],
    [factsOf(get('my_tasks')).length, 'task needs you', 'tasks need you'],
    [factsOf(get('items_waiting')).length, 'item is waiting', 'items are waiting'],
    [factsOf(get('comms_waiting')).length, 'thread awaits your reply', 'threads await your reply'],
  ] as const;
  const said = parts.filter(([n]) => n > 0).map(([n, one, many]) => count(n, one, many));
  // A failed run comes right after goals at risk: work the person started did not happen.
  const lead =
    factsOf(get('goals_at_risk'))[0] ??
    factsOf(get('runs_failed'))[0] ??
    factsOf(get('my_tasks'))[0] ??
    factsOf(get('kpi_moves'))[0];
  const summary = said.length
    ? `Since the previous brief: ${said.join('; ')}.${lead ? ` Most pressing: ${lead.text}` : ''}`
    : 'Nothing needs your attention in this period.';
  return JSON.stringify({ summary, actions: actionsFromFacts(sections) });
};
