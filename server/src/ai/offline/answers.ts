import type { SearchHit, SnapshotGoal, SnapshotKpi, WorkspaceSnapshotOutput } from '../tools/types.ts';
import { type Evidence, hitFact, hitSnippet, snapshotSummary } from './evidence.ts';
import { fmt, listOf, plainText, sentence } from './prose.ts';

/**
 * "Answers first" (issue 47 item 2): what an executive asks, recognised from the question, answered
 * in a sentence or two from the grounding tools' results, with only the records the answer used.
 * The chat handler writes these; the citations of the turn are the records named here.
 */
export type QuestionKind = 'metric' | 'at-risk' | 'draft' | 'lookup';

export interface Answer {
  kind: QuestionKind;
  text: string;
  /** The records the answer names, as { type, title } (their ids come from the tool results). */
  cites: { type: string; title: string }[];
}

const AT_RISK =
  /\b(behind|at risk|off track|slipping|lagging|what should (?:i|we) do|where should (?:i|we) focus|priorit)/i;
const DRAFT = /\b(draft|write|compose|prepare)\b.*\b(note|e-?mail|update|memo|message|letter|summary)\b/i;

const NAME_STOP = new Set(['of', 'the', 'a', 'an', 'and', 'rate', 'number', 'total', 'count', 'our', 'new']);
const words = (text: string) => (text.toLowerCase().match(/[\p{L}\p{N}$€£%]+/gu) ?? []).filter(Boolean);

/** The KPI a question names (at least half of its name's words, the most first), with its goal. */
export function kpiAskedAbout(
  question: string,
  snapshot: WorkspaceSnapshotOutput,
): { kpi: SnapshotKpi; goal: SnapshotGoal } | null {
  const asked = new Set(words(question).map((w) => w.replace(/s$/, '')));
  let best: { kpi: SnapshotKpi; goal: SnapshotGoal; score: number } | null = null;
  for (const goal of snapshot.goals)
    for (const kpi of goal.kpis) {
      const name = words(kpi.name).filter((w) => !NAME_STOP.has(w) && w.length > 1);
      const score = name.filter((w) => asked.has(w.replace(/s$/, ''))).length;
      // At least half of the name: "board deck" does not ask about "Board materials ready".
      if (score > 0 && score * 2 >= name.length && (!best || score > best.score)) best = { kpi, goal, score };
    }
  return best ? { kpi: best.kpi, goal: best.goal } : null;
}

export function questionKind(question: string, snapshot: WorkspaceSnapshotOutput | null): QuestionKind {
  if (DRAFT.test(question)) return 'draft';
  if (AT_RISK.test(question)) return 'at-risk';
  if (snapshot && kpiAskedAbout(question, snapshot)) return 'metric';
  return 'lookup';
}

const withUnit = (value: number, unit: string | null) =>
  unit ? (unit === '%' ? `${fmt(value)}%` : `${fmt(value)} ${unit}`) : fmt(value);

/** One sentence: the KPI's latest value and its date, the target, the trend and the forecast. */
export function metricSentence(kpi: SnapshotKpi, goal: SnapshotGoal): string {
  const value = withUnit(kpi.current_value, kpi.unit);
  const when = kpi.last_checkin_date ? ` as of ${kpi.last_checkin_date}` : ' (no check-in recorded yet)';
  const target =
    kpi.target_value === null
      ? ''
      : `, against a target of ${withUnit(kpi.target_value, kpi.unit)} by ${goal.due_date}`;
  const prev = kpi.previous;
  const trend = !prev
    ? ''
    : prev.value === kpi.current_value
      ? `; it is unchanged since ${prev.date}`
      : `; it is ${kpi.current_value > prev.value ? 'up' : 'down'} from ${withUnit(prev.value, kpi.unit)} on ${prev.date}`;
  const forecast = !kpi.forecast
    ? ''
    : ` and forecast at ${withUnit(kpi.forecast.value_at_due, kpi.unit)} by the due date (${
        kpi.forecast.on_track ? 'on track' : 'short of the target'
      })`;
  const stale = kpi.stale ? ', though that figure is out of date' : '';
  return sentence(`${kpi.name} is ${value}${when}${stale}${target}${trend}${forecast}`);
}

/** The at-risk goals with their reasons (as the goals API states them), then up to three actions. */
export function atRiskAnswer(s: WorkspaceSnapshotOutput): Answer {
  const atRisk = s.goals.filter((g) => g.risk?.at_risk);
  const cites = atRisk.map((g) => ({ type: 'goal', title: g.title }));
  // Each goal in the words the Brief and advice use (goal-risk-agreement.test.ts).
  const lead = atRisk.length
    ? `${atRisk.length === 1 ? 'One goal is' : `${atRisk.length} goals are`} behind plan. ${atRisk
        .map((g) => `Goal “${g.title}” is at risk: ${g.risk.reasons.join('; ')}.`)
        .join(' ')}`
    : `None of your ${s.goals.length} open goals is at risk.`;
  const actions: string[] = [];
  for (const g of atRisk)
    for (const k of g.kpis.filter((x) => x.stale))
      actions.push(
        `record a check-in for KPI “${k.name}” of Goal “${g.title}”${k.last_checkin_date ? ` (last one ${k.last_checkin_date})` : ''}`,
      );
  for (const t of s.overdue_tasks) {
    actions.push(`finish or re-date Task “${t.title}”, due ${t.due_date}`);
    cites.push({ type: 'task', title: t.title });
  }
  for (const w of s.waiting ?? [])
    actions.push(
      `answer “${w.title.replace(/“/g, '‘').replace(/”/g, '’')}”, waiting in your inbox since ${w.since}`,
    );
  for (const g of atRisk)
    for (const k of g.kpis.filter((x) => x.lagging && !x.stale))
      actions.push(`agree the actions that move ${k.name} for Goal “${g.title}”`);
  const shown = actions.slice(0, 3);
  const keep = new Set(shown.join(' ').match(/“[^”]+”/g) ?? []);
  // Actions carry commas of their own ("…, due 2026-11-01"): semicolons keep them apart.
  const said = shown.length > 1 ? `${shown.slice(0, -1).join('; ')}; and ${shown.at(-1)}` : (shown[0] ?? '');
  const todo = shown.length ? ` This week I would ${said}.` : '';
  return {
    kind: 'at-risk',
    text: `${lead}${todo}`,
    cites: cites.filter((c) => c.type === 'goal' || keep.has(`“${c.title}”`)),
  };
}

/** Who a draft is for and what about: "a note to the board about Q4" → { to: 'the board', about: 'Q4' }. */
function draftTarget(question: string): { to: string | null; about: string | null } {
  const q = question.replace(/[.?!]+$/, '');
  const to = /\bto (?:the )?([\p{L}][\p{L}\s'-]*?)(?=\s+(?:about|on|regarding|re|with|that)\b|$|[,;])/iu.exec(
    q,
  );
  const about = /\b(?:about|on|regarding)\s+(.+)$/i.exec(q);
  return {
    to: to ? (/^the\b/i.test(to[0].slice(3)) ? `the ${to[1]}` : to[1]).trim() : null,
    about: about ? about[1].trim() : null,
  };
}

/** A draft in plain prose from the facts: where the metrics stand, what is behind, what comes next. */
export function draftAnswer(question: string, s: WorkspaceSnapshotOutput, userName: string | null): Answer {
  const { to, about } = draftTarget(question);
  const asked = about ? kpiAskedAbout(about, s) : null;
  const atRisk = s.goals.filter((g) => g.risk?.at_risk);
  const kpis = asked
    ? [asked]
    : s.goals.flatMap((goal) => goal.kpis.map((kpi) => ({ kpi, goal }))).slice(0, 3);
  const cites = [...new Map([...kpis.map((x) => x.goal), ...atRisk].map((g) => [g.id, g])).values()].map(
    (g) => ({ type: 'goal', title: g.title }),
  );
  const greeting = to ? `Dear ${to.replace(/^the /i, '')},` : 'Hello,';
  const intro = `Here is a short update${about ? ` on ${plainText(about)}` : ''} as of ${s.today}.`;
  const figures = kpis.map((x) => metricSentence(x.kpi, x.goal)).join(' ');
  const risk = atRisk.length
    ? `${listOf(atRisk.map((g) => g.title))} ${atRisk.length === 1 ? 'is' : 'are'} behind plan, and we are acting on ${atRisk.length === 1 ? 'it' : 'them'} this week.`
    : 'All our open goals are on plan.';
  const overdue = s.overdue_tasks.slice(0, 2).map((t) => t.title);
  const next = overdue.length
    ? `Next, we are closing ${listOf(overdue.map((t) => `“${t}”`))}, which ${overdue.length === 1 ? 'is' : 'are'} overdue.`
    : '';
  for (const t of s.overdue_tasks.slice(0, 2)) cites.push({ type: 'task', title: t.title });
  const body = [intro, figures, risk, next].filter(Boolean).join(' ');
  const sign = userName?.trim() ? `Best regards,\n${userName.trim().split(/\s+/)[0]}` : 'Best regards';
  return {
    kind: 'draft',
    text: `Here is a draft you can edit and send:\n\n${greeting}\n\n${body}\n\n${sign}`,
    cites,
  };
}

/** Anything else: the best matching records, said in one sentence (at most three named). */
export function lookupAnswer(ev: Evidence, query: string): Answer | null {
  const hits: SearchHit[] = ev.search?.hits.slice(0, 3) ?? [];
  if (!ev.search) return null;
  if (hits.length === 0) {
    const state = ev.snapshot ? ` ${snapshotSummary(ev.snapshot)}` : '';
    return { kind: 'lookup', text: `I found nothing in your workspace about “${query}”.${state}`, cites: [] };
  }
  const [top, ...rest] = hits;
  const fact = hitFact(top, ev.snapshot).text;
  const snippet = hitSnippet(top);
  // A goal or task told from the snapshot does not carry its text yet: quote the matching part.
  const lead =
    snippet && !fact.includes(snippet) ? `${fact} It reads: “${snippet.replace(/\.$/, '')}”.` : fact;
  const also = rest.length
    ? ` Also related: ${listOf(rest.map((h) => hitFact(h, ev.snapshot).source))}.`
    : '';
  return {
    kind: 'lookup',
    text: `${lead}${also}`,
    cites: hits.map((h) => ({ type: h.type, title: plainText(h.title) })),
  };
}
