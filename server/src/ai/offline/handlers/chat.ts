import type { InternalSearchOutput, WebSearchOutput, WorkspaceSnapshotOutput } from '../../tools/types.ts';
import { sourceLabel, sourcesOf } from '../../tools/types.ts';
import {
  type Evidence,
  evidenceOf,
  hitFact,
  hitSnippet,
  snapshotFacts,
  snapshotSummary,
  webFact,
} from '../evidence.ts';
import {
  type Answer,
  atRiskAnswer,
  draftAnswer,
  kpiAskedAbout,
  lookupAnswer,
  metricSentence,
  questionKind,
} from '../answers.ts';
import { clip, plainLines, sentence } from '../prose.ts';
import { OFFLINE_NOTICE, type OfflineHandler } from '../types.ts';

/** What the assistant passes in `providerOptions.offline.data` for a chat turn. */
export interface ChatOfflineData {
  memories?: string[];
  userName?: string | null;
  /** 'unavailable' when the Internet toggle is on but no search provider is configured */
  internetSearch?: 'off' | 'on' | 'unavailable';
  /** Files attached in the conversation (text already bounded by the assistant). */
  attachments?: { name: string; text: string }[];
}

/** The header under which the assistant puts the attached files in its system prompt. */
export const ATTACHMENTS_HEADER = 'Files attached to this conversation';

const EXCERPT_LINES = 3;
const EXCERPT_CHARS = 240;

const wordsOf = (text: string) =>
  new Set((text.toLowerCase().match(/[\p{L}\p{N}]{4,}/gu) ?? []).filter((w) => !STOP_WORDS.has(w)));
const STOP_WORDS = new Set([
  'what',
  'which',
  'does',
  'this',
  'that',
  'with',
  'from',
  'about',
  'file',
  'files',
  'attached',
  'tell',
  'there',
  'have',
  'your',
  'please',
  'summarize',
  'summarise',
  'says',
  'say',
]);

/**
 * The attached files the question is about (those sharing a word with it; all of them when none
 * does) with their matching lines as sentences, so the answer quotes and names what it used.
 */
function attachmentSection(
  files: { name: string; text: string }[],
  question: string,
): { lines: string[]; used: string[] } {
  const asked = wordsOf(question);
  const scored = files.map((f) => {
    const lines = plainLines(f.text);
    const hits = lines.filter((l) => [...wordsOf(l)].some((w) => asked.has(w)));
    return { f, hits, lines };
  });
  const matching = scored.filter((s) => s.hits.length > 0 || asked.has(s.f.name.toLowerCase()));
  const used = matching.length > 0 ? matching : scored;
  const said = used.map((u) => {
    const excerpt = (u.hits.length > 0 ? u.hits : u.lines)
      .slice(0, EXCERPT_LINES)
      .map((l) => sentence(clip(l, EXCERPT_CHARS)));
    return `File “${u.f.name}” ${excerpt.length ? `says: ${excerpt.join(' ')}` : 'has no text I can read.'}`;
  });
  const lines = said.length === 1 ? said : ['The attached files say:', ...said.map((x) => `- ${x}`)];
  return { lines, used: used.map((u) => `File “${u.f.name}”`) };
}

const MAX_ITEMS = 4;
/** A greeting's overview names at most this many records under "Sources". */
const MAX_LISTED_SOURCES = 5;
/** When the answer names no record, this many of what the tools found are cited. */
const UNNAMED_SOURCES = 3;

/** The answer to what was asked, when the tools gave a snapshot or a search to answer from. */
function answerOf(question: string, ev: Evidence, userName: string | null): Answer | null {
  const kind = questionKind(question, ev.snapshot);
  if (ev.snapshot && kind === 'metric') {
    const asked = kpiAskedAbout(question, ev.snapshot);
    if (asked)
      return {
        kind,
        text: metricSentence(asked.kpi, asked.goal),
        cites: [{ type: 'goal', title: asked.goal.title }],
      };
  }
  if (ev.snapshot && kind === 'at-risk') return atRiskAnswer(ev.snapshot);
  if (ev.snapshot && kind === 'draft') return draftAnswer(question, ev.snapshot, userName);
  return ev.search ? lookupAnswer(ev, ev.search.query) : null;
}

const GREETING = /^(hi|hello|hey|good (morning|afternoon|evening)|thanks|thank you)\b[\s\p{L}]{0,12}[!.]*$/iu;

/** The lead: the record that answers the question, or what the search did not find. */
function searchSection(o: InternalSearchOutput, ev: Evidence, cited: Set<string>): string[] {
  if (o.hits.length === 0) return [`I found nothing in your workspace about “${o.query}”.`];
  const facts = o.hits.slice(0, MAX_ITEMS + 1).map((h) => ({ h, f: hitFact(h, ev.snapshot) }));
  const [top, ...rest] = facts;
  for (const x of facts) cited.add(x.f.source);
  const snippet = hitSnippet(top.h);
  // A goal or task told from the snapshot does not carry its text yet: quote the matching part.
  const lead =
    snippet && !top.f.text.includes(snippet)
      ? `${top.f.text} It reads: “${snippet.replace(/\.$/, '')}”.`
      : top.f.text;
  if (rest.length === 0) return [lead];
  return [lead, '', `Also related to “${o.query}”:`, ...rest.map((x) => `- ${x.f.text}`)];
}

/** The state of the workspace around the answer: a summary and the pressing items not named yet. */
function snapshotSection(s: WorkspaceSnapshotOutput, cited: Set<string>, lead: boolean): string[] {
  const pressing = snapshotFacts(s).filter((f) => !cited.has(f.source) && (lead || f.urgency > 0));
  const shown = pressing.slice(0, MAX_ITEMS);
  for (const f of shown) cited.add(f.source);
  const intro = lead ? snapshotSummary(s) : `More broadly: ${snapshotSummary(s).replace(/^As of/, 'as of')}`;
  if (shown.length === 0) return [intro];
  const label = shown.some((f) => f.urgency > 0) ? 'What needs attention first:' : 'What is open:';
  return [`${intro} ${label}`, ...shown.map((f) => `- ${f.text}`)];
}

function webSection(o: WebSearchOutput): string[] {
  if (o.error)
    return [`The web search failed (${clip(o.error, 120)}), so this answer uses your workspace only.`];
  if (o.results.length === 0) return [`The web search for “${o.query}” found nothing.`];
  return ['On the web:', ...o.results.slice(0, MAX_ITEMS).map((r) => `- ${webFact(r).text}`)];
}

/** The header under which the assistant lists memories in its system prompt (see assistant.ts). */
export const MEMORY_HEADER = 'What you remember about the user';

/** Memories listed in a system prompt under {@link MEMORY_HEADER}, for callers that pass no data. */
export function memoriesInSystem(system: string): string[] {
  const lines = system.split('\n');
  const start = lines.findIndex((l) => l.startsWith(MEMORY_HEADER));
  if (start < 0) return [];
  const out: string[] = [];
  for (const l of lines.slice(start + 1)) {
    if (!l.startsWith('- ')) break;
    out.push(l.slice(2).trim());
  }
  return out;
}

/**
 * The default offline task: answers the last message from what the grounding tools returned (the
 * matching record first, then the state of the workspace, the attached files, the web) and the
 * memories passed in, as sentences and short lists that name every record they use.
 */
export const chatHandler: OfflineHandler = ({ data, system, lastUserText, toolResults }) => {
  const d = (data ?? {}) as ChatOfflineData;
  const ev = evidenceOf(toolResults);
  const out: string[] = [OFFLINE_NOTICE, ''];
  const sections: string[][] = [];
  const attached = (d.attachments ?? []).filter((f) => f.text.trim() !== '');
  const files = attached.length > 0 && lastUserText ? attachmentSection(attached, lastUserText) : null;
  const greeting = GREETING.test(lastUserText);
  const first = d.userName?.trim().split(/\s+/)[0];
  if (greeting) sections.push([`Hello${first ? `, ${first}` : ''}.`]);
  if (files) sections.push(files.lines);

  const cited = new Set<string>();
  // Answers first (issue 47 item 2): the question's kind decides the answer; a KPI beats file text.
  const answer = greeting || !lastUserText ? null : answerOf(lastUserText, ev, d.userName ?? null);
  // A metric is answered from its KPI, never from a file's older figure.
  if (answer?.kind === 'metric' && files) sections.splice(sections.indexOf(files.lines), 1);
  if (answer) sections.push([answer.text]);
  else if (ev.search && !greeting) sections.push(searchSection(ev.search, ev, cited));
  if (ev.snapshot && !answer) sections.push(snapshotSection(ev.snapshot, cited, greeting || !ev.search));
  if (ev.web) sections.push(webSection(ev.web));

  if (!lastUserText) {
    sections.push(['Ask me about your goals, tasks, notes, advice or contacts.']);
  } else if (toolResults.length === 0 && !files) {
    sections.push([
      'I can only answer from your workspace data, and Internal Search is off for this message. ' +
        'Turn on Internal Search in More Settings and ask again.',
    ]);
  }
  const memories = (d.memories ?? memoriesInSystem(system)).filter(Boolean);
  if (memories.length > 0)
    sections.push([
      'From earlier conversations I remember:',
      ...memories.slice(0, MAX_ITEMS + 1).map((m) => `- ${m}`),
    ]);
  if (d.internetSearch === 'unavailable')
    sections.push(['Internet search is not configured on this server, so I did not search the web.']);

  for (const s of sections) out.push(...s, '');
  // An answer that names no record cites what the tools found first, as the turn's citations do
  // (sourcesNamedIn).
  const cites = answer?.cites.length ? answer.cites : sourcesOf(toolResults).slice(0, UNNAMED_SOURCES);
  const sources = answer
    ? [...(answer.kind === 'metric' ? [] : (files?.used ?? [])), ...cites.map(sourceLabel)]
    : [...(files?.used ?? []), ...sourcesOf(toolResults).slice(0, MAX_LISTED_SOURCES).map(sourceLabel)];
  if (sources.length > 0) out.push(`Sources: ${sources.join(', ')}`);
  return out
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
};
