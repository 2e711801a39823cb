import { expect } from 'vitest';

/**
 * What must never appear in an offline text (not a test file itself; the API tests use it too):
 * step headings ("### Analyse (step 2)"), template markers, filler labels ("Result:", "**Task:**"),
 * and values that leaked unformatted.
 */
export const TEMPLATE_LEAKS: readonly RegExp[] = [
  /#{3,}/,
  /\{\{|\}\}|<%|%>|\$\{/,
  /\bResult:/,
  /\bprepared for\b/i,
  /\(step \d+\)|\bstep \d+\b/i,
  /\*\*[^*\n]{1,40}:\*\*/,
  /\bundefined\b|\bnull\b|\bNaN\b|\[object Object\]/,
  / \/ /,
];

/** The text is non-empty, leaks no template marker, and has no empty bullet or doubled punctuation. */
export function expectWellFormed(text: string): void {
  expect(text.trim().length).toBeGreaterThan(0);
  for (const leak of TEMPLATE_LEAKS) expect(text, `leaks ${leak}`).not.toMatch(leak);
  expect(text).not.toMatch(/^\s*[-*]\s*$/m);
  expect(text).not.toMatch(/\.\.(?!\.)|,,|\s[,.;:](?!\d)|[.!?]["”]\./);
}
