/**
 * Dates in one fixed, unambiguous form ("12 Mar 2026", "12 Mar 2026, 14:05" in the viewer's time
 * zone), built by hand rather than with Intl: the first Intl formatter of a page loads the locale
 * data, one task of 30 ms on this machine and about 120 ms on a throttled phone, which was the longest
 * task of the dashboard's first load. The app is in English, so a locale-independent day-month-year
 * reads right everywhere (and never as 03/12 vs 12/03). See docs/decisions.md.
 */
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

const dayOf = (d: Date) => `${d.getDate()} ${MONTHS[d.getMonth()]} ${d.getFullYear()}`;
const two = (n: number) => String(n).padStart(2, '0');

function parse(value: string | null | undefined): Date | null {
  if (!value) return null;
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** A short local date ("12 Mar 2026"), or an em dash for a missing or unreadable value. */
export function formatDate(value: string | null | undefined): string {
  const d = parse(value);
  return d ? dayOf(d) : '—';
}

/** A YYYY-MM-DD date shown as that calendar day (no time-zone shift), or an em dash. */
export function formatDay(value: string | null | undefined): string {
  if (!value) return '—';
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(value);
  if (!m) return '—';
  const d = new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  return Number.isNaN(d.getTime()) ? '—' : dayOf(d);
}

/** A local date and 24-hour time ("12 Mar 2026, 14:05"), or an em dash. */
export function formatDateTime(value: string | null | undefined): string {
  const d = parse(value);
  return d ? `${dayOf(d)}, ${two(d.getHours())}:${two(d.getMinutes())}` : '—';
}
