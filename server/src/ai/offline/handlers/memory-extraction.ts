import type { OfflineHandler } from '../types.ts';

/** Sentences that state something durable about the speaker. */
const FACT =
  /\b(i am|i'm|i work|i prefer|i like|i love|i dislike|i hate|i live|i manage|i lead|i run|i own|i usually|i always|i never|call me|my)\b/i;
const MAX_FACT_CHARS = 300;

/** Heuristic fact extraction: first-person statements (not questions), trimmed, in order, unique. */
export function extractFacts(text: string): string[] {
  const sentences = text
    .replace(/\r/g, '')
    .split(/(?<=[.!?])\s+|\n+/)
    .map((s) => s.trim())
    .filter(Boolean);
  const seen = new Set<string>();
  const facts: string[] = [];
  for (const s of sentences) {
    if (s.endsWith('?') || !FACT.test(s)) continue;
    let fact = s.replace(/\s+/g, ' ').slice(0, MAX_FACT_CHARS);
    if (!/[.!]$/.test(fact)) fact += '.';
    const key = fact.toLowerCase();
    if (!seen.has(key)) {
      seen.add(key);
      facts.push(fact);
    }
  }
  return facts;
}

/** `providerOptions.offline = { task: 'memory-extraction', data: { content } }` → `{"facts":[...]}`. */
export const memoryExtractionHandler: OfflineHandler = ({ data, lastUserText }) => {
  const content = (data as { content?: unknown } | null)?.content;
  return JSON.stringify({ facts: extractFacts(typeof content === 'string' ? content : lastUserText) });
};
