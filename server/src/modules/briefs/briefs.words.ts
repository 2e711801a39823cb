import type { TBriefItem, TBriefSection } from '@cc/contract';
import { generateText } from 'ai';
import type { MeterScope } from '../../ai/metering/meter-scope.ts';
import { resolveModel } from '../../ai/models.ts';
import { actionsFromFacts, type BriefActionRef } from '../../ai/offline/handlers/brief.ts';
import type { AppContext } from '../../platform/context.ts';

/**
 * The brief's words: the model (or the offline engine, task `brief`) writes a short summary and the top
 * three actions from the facts alone. Every number in the summary and the actions must be one of the
 * facts' numbers: checked here for every brief. Words that fail the check (or that cannot be read, or a
 * model that fails) are replaced by the facts' own plain wording, and the brief says so.
 */

const SYSTEM = [
  'You write the morning brief of an executive from the facts given as JSON, and from nothing else.',
  'Answer with one JSON object: {"summary": string, "actions": [{"text": string, "ref": string}]}.',
  'summary: at most four sentences on what moved, what is at risk and what waits; use only numbers that',
  'appear in the facts. actions: the three most important actions, each with ref "<section key>:<item',
  'index>" naming the fact it acts on.',
].join(' ');

export interface BriefWords {
  summary: string;
  summary_status: 'checked' | 'replaced';
  actions: TBriefItem[];
}

/** The numbers a text states: "1,200.5" → 1200.5, "-3" → 3, "45%" → 45; dates give their parts. */
export function numbersIn(text: string): Set<string> {
  const out = new Set<string>();
  const plain = text.replace(/(\d),(?=\d{3}(?!\d))/g, '$1');
  for (const m of plain.matchAll(/\d+(?:\.\d+)?/g)) out.add(String(Number(m[0])));
  return out;
}

/** The facts' numbers: those written in the items, and the count of each section's facts. */
export function factNumbers(sections: readonly TBriefSection[]): Set<string> {
  const out = new Set<string>();
  for (const s of sections) {
    const facts = s.enough_data ? s.items.filter((i) => i.citations.length) : [];
    out.add(String(facts.length));
    for (const i of s.items) for (const n of numbersIn(i.text)) out.add(n);
  }
  return out;
}

/** True when every number of `text` is one of the facts' numbers. */
export function numbersCheck(text: string, allowed: Set<string>): boolean {
  return [...numbersIn(text)].every((n) => allowed.has(n));
}

/** The facts' plain wording: each section's title and its first fact, word for word. */
export function plainSummary(sections: readonly TBriefSection[]): string {
  const lines = sections
    .filter((s) => s.key !== 'why_it_moved')
    .map((s) => `${s.title}: ${s.items[0]?.text ?? ''}`);
  return lines.join('\n');
}

function itemOf(sections: readonly TBriefSection[], ref: string): TBriefItem | undefined {
  const m = /^([a-z_]+):(\d{1,4})$/.exec(ref);
  if (!m) return undefined;
  return sections.find((s) => s.key === m[1])?.items[Number(m[2])];
}

function actionsOf(sections: readonly TBriefSection[], refs: readonly BriefActionRef[]): TBriefItem[] | null {
  const out: TBriefItem[] = [];
  for (const a of refs.slice(0, 3)) {
    const item = itemOf(sections, a.ref);
    if (!item?.citations.length || !a.text.trim()) return null;
    out.push({ text: a.text.trim().slice(0, 500), citations: item.citations });
  }
  return out;
}

/** Most actions the model may propose: it is asked for three; a longer list is not a brief's answer. */
const MAX_WRITTEN_ACTIONS = 10;

/** One written action as the prompt asks for it ({text, ref}, both strings), or null for anything else. */
function actionRefOf(v: unknown): BriefActionRef | null {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return null;
  const { text, ref } = v as Record<string, unknown>;
  return typeof text === 'string' && typeof ref === 'string' ? { text, ref } : null;
}

/**
 * The model's JSON, read as untrusted input: any shape but the one asked for (actions as strings,
 * nulls, numbers, refs missing, a huge list) gives null, and the facts' own wording is used.
 */
function parseWords(text: string): { summary: string; actions: BriefActionRef[] } | null {
  const json = text.slice(text.indexOf('{'), text.lastIndexOf('}') + 1);
  let o: unknown;
  try {
    o = JSON.parse(json);
  } catch {
    return null;
  }
  if (typeof o !== 'object' || o === null) return null;
  const { summary, actions } = o as Record<string, unknown>;
  if (typeof summary !== 'string' || !summary.trim() || !Array.isArray(actions)) return null;
  if (actions.length > MAX_WRITTEN_ACTIONS) return null;
  const refs = actions.map(actionRefOf);
  if (refs.some((r) => r === null)) return null;
  return { summary: summary.trim().slice(0, 2000), actions: refs as BriefActionRef[] };
}

/** Checks written words against the facts; what fails is replaced by the facts' own wording. */
export function checkedWords(sections: readonly TBriefSection[], written: string | null): BriefWords {
  const allowed = factNumbers(sections);
  const fallbackActions = actionsOf(sections, actionsFromFacts(sections)) ?? [];
  const parsed = written === null ? null : parseWords(written);
  const actions = parsed ? actionsOf(sections, parsed.actions) : null;
  const ok =
    parsed !== null &&
    actions !== null &&
    numbersCheck(parsed.summary, allowed) &&
    actions.every((a) => numbersCheck(a.text, allowed));
  if (!ok || !parsed || !actions) {
    return { summary: plainSummary(sections), summary_status: 'replaced', actions: fallbackActions };
  }
  return { summary: parsed.summary, summary_status: 'checked', actions };
}

/** Asks the model for the words (never throws: a failed call is a replaced summary). */
export async function writeWords(
  ctx: AppContext,
  /** Whom the call is metered to: the brief's user and organization. */
  meter: MeterScope,
  sections: TBriefSection[],
): Promise<BriefWords> {
  let written: string | null = null;
  try {
    const { model } = resolveModel(ctx, null, meter);
    const { text } = await generateText({
      model,
      system: SYSTEM,
      prompt: `Facts (JSON):\n${JSON.stringify({ sections })}\n\nWrite the brief's JSON.`,
      maxRetries: ctx.config.ai.maxRetries,
      providerOptions: { offline: { task: 'brief', data: { sections } } },
    });
    written = text;
  } catch {
    // A model that fails (down, rate-limited) costs the words, not the brief: the facts speak.
  }
  return checkedWords(sections, written);
}
