/**
 * Small writing helpers shared by the offline handlers, so every answer reads as finished prose:
 * numbers without trailing zeros, "a, b and c" lists, sentences cut at a word, and another step's
 * markdown turned back into plain sentences before it is quoted.
 */

/** 12, 0.5, 3.25 (never 3.250000001 or 12.00). */
export const fmt = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(2).replace(/\.?0+$/, ''));

export const pct = (n: number) => `${Math.round(n)}%`;

export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** "a", "a and b", "a, b and c". */
export function listOf(items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? '';
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/** Cut at a word boundary so a quote never ends mid-word. */
export function clip(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:—-]+$/, '')}…`;
}

/** Ends the text with a full stop unless it already ends a sentence. */
export function sentence(text: string): string {
  const t = text.trim();
  if (!t) return t;
  return /[.!?…:]$/.test(t) ? t : `${t}.`;
}

/** The engine's own notice lines (italic, starting "Offline engine"), which are never quoted back. */
const NOTICE_LINE = /^_?offline engine\b/i;

/**
 * Another output's markdown as plain lines: headings, emphasis, list markers, links and the
 * engine's notice removed, so a later step can quote it inside its own sentences.
 */
export function plainLines(markdown: string): string[] {
  return markdown
    .split('\n')
    .map((l) =>
      l
        .replace(/^\s{0,3}#{1,6}\s+/, '')
        .replace(/^\s*(?:[-*+]|\d+[.)])\s+/, '')
        .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
        .replace(/(\*\*|__)(.+?)\1/g, '$2')
        .replace(/(^|[\s(])[*_]([^*_\s][^*_]*?)[*_](?=[\s).,;:!?]|$)/g, '$1$2')
        .replace(/`([^`]*)`/g, '$1')
        .trim(),
    )
    .filter((l) => l !== '' && !NOTICE_LINE.test(l));
}

/** The first sentence of an output (its conclusion, when it was written conclusion first). */
export function leadSentence(markdown: string, max = 220): string {
  const first = plainLines(markdown)[0] ?? '';
  const m = /^(.+?[.!?])(?:\s|$)/.exec(first);
  return clip(m ? m[1] : first, max);
}

/** A JSON array or object of strings ("[\"priya@…\"]") as the words it holds: "priya@…". */
function unwrapJson(text: string): string {
  const t = text.trim();
  if (!/^[[{]/.test(t)) return text;
  try {
    const values: string[] = [];
    const walk = (v: unknown): void => {
      if (typeof v === 'string' || typeof v === 'number') values.push(String(v));
      else if (Array.isArray(v)) v.forEach(walk);
      else if (v && typeof v === 'object') Object.values(v).forEach(walk);
    };
    walk(JSON.parse(t));
    return values.join(', ');
  } catch {
    return text;
  }
}

/** A quoted string of JSON (complete, or cut at the end by a snippet), its escapes undone. */
const JSON_STRING = /"((?:[^"\\]|\\.)*)(?:"|$)/g;

/**
 * JSON inside a line, as search snippets cut it: a contact's e-mails after their notes
 * (`… call back ["priya@…", "leo@…"]`), or an array cut short by the snippet's end. Arrays and objects
 * become the words they hold; leftover JSON punctuation goes.
 */
function unwrapEmbeddedJson(line: string): string {
  return line
    .replace(/[[{]\s*"(?:[^\]}]*)(?:[\]}]|$)/g, (m) =>
      [...m.matchAll(JSON_STRING)]
        .map((x) => x[1].replace(/\\(.)/g, '$1').trim())
        .filter((w) => w && w !== ':' && w !== ',')
        .join(', '),
    )
    .replace(/\["|"\]|\{"|"\}|":|","/g, ' ');
}

/**
 * Stored text (a title, a snippet) as one plain line for an answer or a citation label: markdown
 * markers and JSON syntax removed, so neither reaches the screen as raw characters.
 */
export function plainText(text: string): string {
  return plainLines(unwrapJson(text))
    .map(unwrapJson)
    .map(unwrapEmbeddedJson)
    .join(' ')
    .replace(/[*_`#]{2,}/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}
