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
  const [key, index] = ref.split(':');
  return sections.find((s) => s.key === key)?.items[Number(index)];
}

function actionsOf(sections: readonly TBriefSection[], refs: readonly BriefActionRef[]): TBriefItem[] | null {
  const out: TBriefItem[] = [];
  for (const a of refs.slice(0, 3)) {
    const item = itemOf(sections, a.ref);
    if (!item?.citations.length || typeof a.text !== 'string' || !a.text.trim()) return null;
    out.push({ text: a.text.trim().slice(0, 500), citations: item.citations });
  }
  return out;
}

function parseWords(text: string): { summary: string; actions: BriefActionRef[] } | null {
  const json = text.slice(text.indexOf('{'), text.lastIndexOf('}') + 1);
  try {
    const o = JSON.parse(json) as { summary?: unknown; actions?: unknown };
    if (typeof o.summary !== 'string' || !o.summary.trim() || !Array.isArray(o.actions)) return null;
    return { summary: o.summary.trim().slice(0, 2000), actions: o.actions as BriefActionRef[] };
  } catch {
    return null;
  }
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
