import type { LanguageModelV3Prompt } from '@ai-sdk/provider';
import { unwrapUntrusted } from '../untrusted.ts';
import type { OfflineToolResult } from './types.ts';

/** The system messages joined. */
export function systemText(prompt: LanguageModelV3Prompt): string {
  return prompt
    .filter((m) => m.role === 'system')
    .map((m) => m.content)
    .join('\n\n');
}

function lastUserIndex(prompt: LanguageModelV3Prompt): number {
  for (let i = prompt.length - 1; i >= 0; i--) if (prompt[i].role === 'user') return i;
  return -1;
}

/** The text of the last user message (what the engine answers). */
export function lastUserText(prompt: LanguageModelV3Prompt): string {
  const i = lastUserIndex(prompt);
  if (i < 0) return '';
  const m = prompt[i];
  if (m.role !== 'user') return '';
  return m.content
    .map((p) => (p.type === 'text' ? p.text : ''))
    .join('\n')
    .trim();
}

/** Tool results since the last user message: the engine's own earlier tool calls in this turn. */
export function toolResultsOfTurn(prompt: LanguageModelV3Prompt): OfflineToolResult[] {
  const out: OfflineToolResult[] = [];
  for (const m of prompt.slice(lastUserIndex(prompt) + 1)) {
    if (m.role !== 'tool' && m.role !== 'assistant') continue;
    for (const p of m.content) {
      if (p.type !== 'tool-result') continue;
      const o = p.output;
      const value =
        o.type === 'json' || o.type === 'text' || o.type === 'error-text' || o.type === 'error-json'
          ? o.value
          : null;
      out.push({ toolName: p.toolName, toolCallId: p.toolCallId, output: unwrapped(value) });
    }
  }
  return out;
}

/** A result wrapped as untrusted data (ai/untrusted.ts) read back: its JSON parsed, else its text. */
function unwrapped(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const inner = unwrapUntrusted(value);
  if (inner === null) return value;
  try {
    return JSON.parse(inner);
  } catch {
    return inner;
  }
}

/** How many assistant messages the prompt holds (a step counter for deterministic call ids). */
export function assistantSteps(prompt: LanguageModelV3Prompt): number {
  return prompt.filter((m) => m.role === 'assistant').length;
}

/** A rough, deterministic token count (about four characters a token). */
export function estimateTokens(prompt: LanguageModelV3Prompt): number {
  let chars = 0;
  for (const m of prompt) {
    if (typeof m.content === 'string') chars += m.content.length;
    else
      for (const p of m.content)
        chars += p.type === 'text' || p.type === 'reasoning' ? p.text.length : JSON.stringify(p).length;
  }
  return Math.ceil(chars / 4);
}

const STOPWORDS = new Set(
  `a an and are as at be but by can could did do does for from had has have how i i'm im in into is it its
  me my of on or our please show should so tell than that the their them then there these they this to
  us was we were what when where which who why will with would you your about any all give list find
  know need want get let help summarize summarise status update updates latest what's whats`.split(/\s+/),
);

/** Keywords of a message for a search query: lower-cased words without stop words, at most eight. */
export function deriveQuery(text: string): string {
  const words = text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 1 && !STOPWORDS.has(w));
  const unique = [...new Set(words)].slice(0, 8);
  return unique.join(' ') || text.trim().slice(0, 100);
}
