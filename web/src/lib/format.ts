import { runWhenIdle } from './run-when-idle';

let shortDate: Intl.DateTimeFormat | undefined;

/**
 * The one short-date formatter ("12 Mar 2026" in the user's locale), built on first use. The first
 * Intl formatter of a page loads the locale data (about 6 ms of main thread, 25 ms on a throttled
 * phone): it is built in idle time after this module loads, unless a date is shown before that.
 */
function dateFormat(): Intl.DateTimeFormat {
  shortDate ??= new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'short', day: 'numeric' });
  return shortDate;
}
runWhenIdle(dateFormat);

/** A short local date ("12 Mar 2026"), or an em dash for a missing or unreadable value. */
export function formatDate(value: string | null | undefined): string {
  if (!value) return '—';
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? '—' : dateFormat().format(d);
}

/** A YYYY-MM-DD date shown as that calendar day (no time-zone shift), or an em dash. */
export function formatDay(value: string | null | undefined): string {
  if (!value) return '—';
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(value);
  if (!m) return '—';
  return dateFormat().format(new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
}
