import {
  type Evidence,
  evidenceOf,
  type Fact,
  hitFact,
  snapshotFacts,
  snapshotSummary,
  webFact,
} from '../evidence.ts';
import { clip, leadSentence, listOf, plainLines, plural, sentence } from '../prose.ts';
import { applyPlanEdits, hasPlanInstructions, type PlanEdit } from '../plan-edits.ts';
import type { OfflineHandler, OfflineToolResult } from '../types.ts';

/** What the run engine passes for one crew task or flow step (`providerOptions.offline.data`). */
export interface CrewTaskData {
  run_name: string;
  position: number;
  task: { name: string; description: string; expected_output: string | null };
  agent: { name: string; role: string; goal: string } | null;
  inputs: Record<string, string>;
  previous: { name: string; output: string }[];
  human_answer: string | null;
  /** YYYY-MM-DD the step runs on: a person's "due Friday" is read against it */
  today?: string;
}

const MAX_POINTS = 5;

/**
 * What the step is asked to produce, read from its wording: a plan (actions, most pressing first),
 * a write-up of the earlier steps, or findings (facts from the tools).
 */
type Mode = 'plan' | 'write-up' | 'findings';

function modeOf(d: CrewTaskData['task'], hasPrevious: boolean): Mode {
  const words = `${d.name} ${d.description} ${d.expected_output ?? ''}`;
  if (hasPrevious && /\b(write|summar|report|brief|memo|final|document|write-up)/i.test(words))
    return 'write-up';
  if (/\b(plan|priorit|recommend|action|next step|decide|decision|option)/i.test(words)) return 'plan';
  return 'findings';
}

/** A tool step's output (JSON, or its error), which is data rather than prose to quote. */
const isData = (output: string) => /^\s*[[{]|^Tool error:/.test(output);
/** What a tool step returned, quoted as code so a later step shows the data it used. */
const dataOf = (output: string) => `\`${clip(output, 240).replace(/`/g, "'")}\``;
/** A person's answer (a wait-for-human step's output): one line, not written by an agent. */
const isAnswer = (output: string) => !output.includes('\n') && output.length <= 500 && !isData(output);
const APPROVAL = /^\s*(yes|y|ok|okay|approved?|agreed?|go( ahead)?|lgtm|looks good|fine|sure)\b/i;

/** The conclusion of an earlier step: its first sentence after what was asked and answered. */
function conclusionOf(output: string): string {
  // Skip what was asked and answered, and lead-ins such as "What stands out:".
  const body = plainLines(output).filter((l) => !/^(You asked about|Your answer\b)|^[^.!?]*:$/.test(l));
  return leadSentence(body.join('\n'));
}

/** What an earlier step put first: its first point, else its conclusion. */
const keyPointOf = (output: string) => {
  const first = pointsOf(output)[0];
  return first ? leadSentence(first) : conclusionOf(output);
};

/** The list items of an earlier output (its points, plain text). */
function pointsOf(markdown: string): string[] {
  const items = markdown
    .split('\n')
    .filter((l) => /^\s*(?:[-*+]|\d+[.)])\s+/.test(l))
    .join('\n');
  return plainLines(items);
}

function inputsSentence(inputs: Record<string, string>): string | null {
  const given = Object.entries(inputs).filter(([, v]) => v.trim() !== '');
  if (!given.length) return null;
  return `You asked about ${listOf(given.map(([k, v]) => `${k.replace(/_/g, ' ')} “${clip(v, 160)}”`))}.`;
}

function answerSentence(stepName: string | null, answer: string): string {
  const quoted = `“${clip(answer, 300)}”`;
  const where = stepName ? ` to “${stepName}”` : '';
  return APPROVAL.test(answer)
    ? `Your answer${where} was ${quoted}, so the plan stands as drafted.`
    : `Your answer${where} was ${quoted}, and this step takes it as the decision.`;
}

/** Every fact the tools gave, most pressing first, each record once. */
function factsOf(ev: Evidence): Fact[] {
  const facts = ev.snapshot ? snapshotFacts(ev.snapshot) : [];
  const seen = new Set(facts.map((f) => f.source));
  for (const h of ev.search?.hits ?? []) {
    const f = hitFact(h, ev.snapshot);
    if (!seen.has(f.source)) facts.push(f);
    seen.add(f.source);
  }
  return facts;
}

/** The grounding tools the engine reads as facts; any other tool (a bound HTTP tool) is quoted as data. */
const GROUNDING_TOOLS = new Set(['workspace_snapshot', 'internal_search', 'web_search']);

/** What the step's own tools returned (e.g. an HTTP tool bound to a flow step), quoted as data. */
function toolLines(results: readonly OfflineToolResult[]): string[] {
  return results
    .filter((r) => !GROUNDING_TOOLS.has(r.toolName))
    .map((r) => {
      const text = typeof r.output === 'string' ? r.output : JSON.stringify(r.output ?? null);
      return `The tool “${r.toolName}” returned ${dataOf(text)}.`;
    });
}

function webLines(ev: Evidence): string[] {
  if (!ev.web) return [];
  if (ev.web.error) return [sentence(`The web search was unavailable: ${clip(ev.web.error, 120)}`)];
  if (!ev.web.results.length) return [`The web search for “${ev.web.query}” found nothing.`];
  return ['On the web:', ...ev.web.results.slice(0, 3).map((r) => `- ${webFact(r).text}`)];
}

function footer(d: Partial<CrewTaskData>): string {
  const as = d.agent ? ` as the ${d.agent.name} (${d.agent.role})` : '';
  return `_Offline engine — written${as} from your workspace data; no AI provider is configured._`;
}

/** A write-up: the earlier steps' conclusions, then the last step's points (or all of theirs). */
function writeUp(written: { name: string; output: string }[]): string[] {
  const leads = [
    ...new Set(
      written
        .map((p) =>
          sentence(isData(p.output) ? `“${p.name}” returned ${dataOf(p.output)}` : conclusionOf(p.output)),
        )
        .filter(Boolean),
    ),
  ];
  const last = written.at(-1)?.output ?? '';
  const own = pointsOf(last);
  const shown = own.length ? own : written.flatMap((p) => pointsOf(p.output));
  const numbered = /^\s*\d+[.)]\s/m.test(own.length ? last : written.map((p) => p.output).join('\n'));
  const list = shown.slice(0, MAX_POINTS).map((p, i) => `${numbered ? `${i + 1}.` : '-'} ${p}`);
  return [`In short: ${leads.join(' ')}`, ...(list.length ? ['', ...list] : [])];
}

/** A plan: the actions the facts call for (else the earlier steps' points), most pressing first. */
function plan(ev: Evidence, facts: Fact[], written: { output: string }[]): string[] {
  const actions = facts.filter((f) => f.action).map((f) => f.action as string);
  const steps = actions.length ? actions : written.flatMap((p) => pointsOf(p.output));
  const state = ev.snapshot ? `${snapshotSummary(ev.snapshot)} ` : '';
  if (!steps.length)
    return [
      `${state}Nothing is behind plan, so I would keep the current cadence and review the KPIs weekly.`,
    ];
  return [
    `${state}The plan, most pressing first:`,
    '',
    ...steps.slice(0, MAX_POINTS).map((a, i) => `${i + 1}. ${a}`),
  ];
}

/** Findings: the state of the workspace and the facts, most pressing first. */
function findings(ev: Evidence, facts: Fact[], taskName: string): string[] {
  const state = ev.snapshot ? `${snapshotSummary(ev.snapshot)} ` : '';
  if (!facts.length)
    return [state ? state.trim() : `I found no records in your workspace for “${taskName}” yet.`];
  const n = facts.length;
  const lead = ev.snapshot
    ? 'What stands out:'
    : `${plural(n, 'record')} in your workspace ${n === 1 ? 'relates' : 'relate'} to this:`;
  return [`${state}${lead}`, '', ...facts.slice(0, MAX_POINTS).map((f) => `- ${f.text}`)];
}

/**
 * The offline engine's answer for one crew task or flow step: what it was asked or answered, then
 * the conclusion and its points (facts, actions, or the earlier steps' points for a write-up), each
 * naming its record, then what it built on. Deterministic.
 */
export const crewTaskHandler: OfflineHandler = ({ data, toolResults }) => {
  const d = (data ?? {}) as Partial<CrewTaskData>;
  const task = d.task ?? { name: 'Task', description: '', expected_output: null };
  const previous = d.previous ?? [];
  const last = previous.at(-1);
  // A wait-for-human step's output is the person's answer; the step right after it quotes it.
  const answer = d.human_answer ?? (last && isAnswer(last.output) ? last.output : null);
  const answerStep = d.human_answer ? null : (last?.name ?? null);
  const written = previous.filter((p) => !isAnswer(p.output));
  const ev = evidenceOf(toolResults);
  const facts = factsOf(ev);
  const mode = modeOf(task, written.length > 0);
  const lines: string[] = [];

  // A change request at a human step is applied to the drafted plan, not only quoted.
  const drafted = written.at(-1);
  const items = drafted && !isData(drafted.output) ? pointsOf(drafted.output) : [];
  if (answer && !APPROVAL.test(answer) && items.length > 0 && hasPlanInstructions(answer)) {
    const today = d.today ?? ev.snapshot?.today ?? new Date().toISOString().slice(0, 10);
    lines.push(...revisedPlan(answerStep, answer, applyPlanEdits(items, answer, today)), '', footer(d));
    return lines.join('\n');
  }

  // The run's inputs reach every step; the first one says what it was asked, the others build on it.
  const asked = previous.length === 0 ? inputsSentence(d.inputs ?? {}) : null;
  if (asked) lines.push(asked, '');
  if (answer) lines.push(answerSentence(answerStep, answer), '');
  const fromTools = toolLines(toolResults);
  if (fromTools.length) lines.push(...fromTools, '');
  if (mode === 'write-up') lines.push(...writeUp(written));
  else
    lines.push(
      ...(mode === 'plan' ? plan(ev, facts, written) : findings(ev, facts, task.name)),
      ...spaced(webLines(ev)),
    );

  const prev = written.at(-1);
  if (prev && mode !== 'write-up')
    lines.push(
      '',
      isData(prev.output)
        ? `This builds on what “${prev.name}” returned: ${dataOf(prev.output)}.`
        : `This builds on “${prev.name}”, which put first: ${sentence(keyPointOf(prev.output))}`,
    );
  lines.push('', footer(d));
  return lines
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
};

/** The plan as the person's answer changed it, and plainly what could not be applied. */
function revisedPlan(stepName: string | null, answer: string, edit: PlanEdit): string[] {
  const where = stepName ? ` to “${stepName}”` : '';
  const lead = `Your answer${where} was “${clip(answer, 300)}”${
    edit.applied > 0 ? ', and I applied it to the plan.' : ', but I could not apply it to the plan.'
  }`;
  const plan = edit.items.length
    ? ['The plan now reads:', '', ...edit.items.map((p, i) => `${i + 1}. ${sentence(p)}`)]
    : ['The plan is now empty.'];
  const missed = edit.notApplied.length ? ['', `I could not apply: ${edit.notApplied.join('; ')}.`] : [];
  return [lead, '', ...plan, ...missed];
}

const spaced = (block: string[]) => (block.length ? ['', ...block] : []);
