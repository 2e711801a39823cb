import type {
  InternalSearchOutput,
  SnapshotGoal,
  WebSearchOutput,
  WorkspaceSnapshotOutput,
} from '../../tools/types.ts';
import { sourceLabel, sourcesOf } from '../../tools/types.ts';
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
 * does) with their matching lines, so the answer quotes and names what it used.
 */
function attachmentSection(
  files: { name: string; text: string }[],
  question: string,
): { lines: string[]; used: string[] } {
  const asked = wordsOf(question);
  const scored = files.map((f) => {
    const lines = f.text
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean);
    const hits = lines.filter((l) => [...wordsOf(l)].some((w) => asked.has(w)));
    return { f, hits, lines };
  });
  const matching = scored.filter((s) => s.hits.length > 0 || asked.has(s.f.name.toLowerCase()));
  const used = matching.length > 0 ? matching : scored;
  const out = ['**From the attached files**'];
  for (const u of used) {
    const excerpt = (u.hits.length > 0 ? u.hits : u.lines)
      .slice(0, EXCERPT_LINES)
      .map((l) => (l.length > EXCERPT_CHARS ? `${l.slice(0, EXCERPT_CHARS)}…` : l));
    out.push(`- File “${u.f.name}”${excerpt.length ? `: ${excerpt.join(' / ')}` : ' (no text)'}`);
  }
  return { lines: out, used: used.map((u) => `File “${u.f.name}”`) };
}

const MAX_ITEMS = 5;
const pct = (n: number) => `${Math.round(n)}%`;
const fmt = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(2).replace(/0+$/, ''));

function laggingKpi(goal: SnapshotGoal): string | null {
  const lagging = goal.kpis.filter((k) => k.lagging).sort((a, b) => a.progress - b.progress)[0];
  if (!lagging) return null;
  const unit = lagging.unit ? ` ${lagging.unit}` : '';
  return `lagging KPI ${lagging.name}: ${fmt(lagging.current_value)} of ${fmt(lagging.target_value ?? 0)}${unit} (${pct(lagging.progress)})`;
}

function searchSection(o: InternalSearchOutput): string[] {
  if (o.hits.length === 0) return [`Nothing in your workspace matches “${o.query}”.`];
  const lines = [`**Records matching “${o.query}”**`];
  for (const h of o.hits.slice(0, 8)) {
    const snippet = h.snippet && h.snippet !== h.title ? ` — ${h.snippet}` : '';
    lines.push(`- ${sourceLabel(h)}${snippet}`);
  }
  return lines;
}

function snapshotSection(s: WorkspaceSnapshotOutput): string[] {
  const lines: string[] = [];
  if (s.goals.length > 0) {
    lines.push('**Goals and KPI progress**');
    for (const g of s.goals.slice(0, MAX_ITEMS)) {
      const lag = laggingKpi(g);
      lines.push(
        `- Goal “${g.title}” — ${pct(g.progress)} complete, ${g.overdue ? 'overdue since' : 'due'} ${g.due_date} (${g.status.replace(/_/g, ' ')})${lag ? `; ${lag}` : ''}`,
      );
    }
  } else {
    lines.push('You have no open goals yet.');
  }
  lines.push('');
  if (s.overdue_tasks.length > 0) {
    lines.push(`**Overdue tasks** (${s.overdue_task_count} as of ${s.today})`);
    for (const t of s.overdue_tasks.slice(0, MAX_ITEMS))
      lines.push(`- Task “${t.title}” — ${t.priority} priority, was due ${t.due_date}`);
    lines.push('');
  }
  const upcoming = s.open_tasks.filter((t) => !s.overdue_tasks.some((o) => o.id === t.id));
  if (upcoming.length > 0) {
    lines.push(`**Open tasks** (${s.open_task_count} in total)`);
    for (const t of upcoming.slice(0, MAX_ITEMS))
      lines.push(
        `- Task “${t.title}” — ${t.priority} priority, ${t.due_date ? `due ${t.due_date}` : 'no due date'}`,
      );
  } else if (s.overdue_tasks.length === 0) {
    lines.push('You have no open tasks.');
  }
  return lines;
}

function webSection(o: WebSearchOutput): string[] {
  if (o.error) return [`Internet search failed: ${o.error}`];
  if (o.results.length === 0) return [`The web search for “${o.query}” found nothing.`];
  return [
    '**From the web**',
    ...o.results
      .slice(0, MAX_ITEMS)
      .map((r) => `- [${r.title}](${r.url})${r.snippet ? ` — ${r.snippet}` : ''}`),
  ];
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
 * The default offline task: answers from what the grounding tools returned (search hits, goals and KPI
 * progress, tasks, web results) and the memories passed in, naming every record it used.
 */
export const chatHandler: OfflineHandler = ({ data, system, lastUserText, toolResults }) => {
  const d = (data ?? {}) as ChatOfflineData;
  const out: string[] = [OFFLINE_NOTICE, ''];
  const sections: string[][] = [];
  const attached = (d.attachments ?? []).filter((f) => f.text.trim() !== '');
  const files = attached.length > 0 && lastUserText ? attachmentSection(attached, lastUserText) : null;
  if (files) sections.push(files.lines);
  for (const r of toolResults) {
    if (!r.output || typeof r.output !== 'object') continue;
    if (r.toolName === 'internal_search') sections.push(searchSection(r.output as InternalSearchOutput));
    if (r.toolName === 'workspace_snapshot')
      sections.push(snapshotSection(r.output as WorkspaceSnapshotOutput));
    if (r.toolName === 'web_search') sections.push(webSection(r.output as WebSearchOutput));
  }
  const memories = (d.memories ?? memoriesInSystem(system)).filter(Boolean);
  if (memories.length > 0)
    sections.push(['**What I remember about you**', ...memories.slice(0, MAX_ITEMS).map((m) => `- ${m}`)]);

  if (!lastUserText) {
    out.push('Ask me about your goals, tasks, notes, advice or contacts.');
  } else if (toolResults.length === 0 && files) {
    out.push(`Here is what your attached files say about “${lastUserText.slice(0, 120)}”.`);
  } else if (toolResults.length === 0) {
    out.push(
      'I can only answer from your workspace data, and Internal Search is off for this message. ' +
        'Turn on **Internal Search** in More Settings and ask again.',
    );
  } else {
    out.push(`Here is what your workspace says about “${lastUserText.slice(0, 120)}”.`);
  }
  for (const s of sections) out.push('', ...s);
  if (d.internetSearch === 'unavailable')
    out.push('', 'Internet search is not configured on this server, so I did not search the web.');

  const sources = [...(files?.used ?? []), ...sourcesOf(toolResults).slice(0, 12).map(sourceLabel)];
  if (sources.length > 0) out.push('', `Sources: ${sources.join(', ')}`);
  return out
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
};
