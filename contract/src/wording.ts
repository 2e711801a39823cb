/**
 * How server-written text states a day and a quantity, the way the app prints them elsewhere
 * (web/src/lib/format.ts: "29 Nov 2026"; never "2026-11-29", read as 11/29 or 29/11 by different people).
 */
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** "2026-11-29" (or an ISO timestamp, its UTC day) → "29 Nov 2026"; anything else as it is. */
export function dayText(date: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(date);
  const month = m ? MONTHS[Number(m[2]) - 1] : undefined;
  return m && month ? `${Number(m[3])} ${month} ${m[1]}` : date;
}

/** Every YYYY-MM-DD day in a sentence written as {@link dayText} (a sentence quoted from elsewhere). */
export function withDayTexts(text: string): string {
  return text.replace(/\b\d{4}-\d{2}-\d{2}\b/g, (d) => dayText(d));
}

/**
 * A unit as it reads after `n`: a plural English word loses its plural at exactly 1 ("1 customer",
 * "1 new hire"). Symbols and abbreviations ("k€", "%", "EUR") and words not ending in a plain
 * plural "s" ("status", "class") are left as they are.
 */
export function unitAfter(n: number, unit: string): string {
  if (n !== 1) return unit;
  const m = /^(.*?)([a-z]{3,})$/.exec(unit);
  if (!m) return unit;
  const [, head, word] = m;
  if (/(ss|us|is)$/.test(word) || !word.endsWith('s')) return unit;
  if (word.endsWith('ies')) return `${head}${word.slice(0, -3)}y`;
  if (/(x|ch|sh)es$/.test(word)) return `${head}${word.slice(0, -2)}`;
  return `${head}${word.slice(0, -1)}`;
}
