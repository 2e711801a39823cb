/**
 * Every date the app shows goes through here (issue 47 item 4): one locale-aware form, from `Intl`
 * in the browser's locale (en-GB reads "29 Nov 2026", en-US "Nov 29, 2026", de "29.11.2026"), in the
 * viewer's time zone. The API keeps ISO strings on the wire; only the screens format them.
 * Formatters are built on first use and reused: building one loads the locale's data (a long task of
 * ~30 ms on a slow machine, docs/decisions/), so no module builds one at import and none is built
 * per call.
 */
type Style = 'date' | 'dateLong' | 'dateTime' | 'time' | 'timeSeconds';

const OPTIONS: Record<Style, Intl.DateTimeFormatOptions> = {
  date: { dateStyle: 'medium' },
  dateLong: { dateStyle: 'full' },
  dateTime: { dateStyle: 'medium', timeStyle: 'short' },
  time: { timeStyle: 'short' },
  timeSeconds: { timeStyle: 'medium' },
};

const built = new Map<Style, Intl.DateTimeFormat>();

/** The reader's locale: the browser's first language (undefined lets Intl use its default). */
function locale(): string | undefined {
  return typeof navigator !== 'undefined'
    ? navigator.languages?.[0] || navigator.language || undefined
    : undefined;
}

function formatter(style: Style): Intl.DateTimeFormat {
  let f = built.get(style);
  if (!f) {
    f = new Intl.DateTimeFormat(locale(), OPTIONS[style]);
    built.set(style, f);
  }
  return f;
}

/** Forgets the built formatters (a test that changes the locale). */
export function resetDateFormatters() {
  built.clear();
}

const EMPTY = '—';

function parse(value: string | Date | null | undefined): Date | null {
  if (!value) return null;
  const d = value instanceof Date ? value : new Date(value);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** A YYYY-MM-DD day as that local calendar day (no time-zone shift), or null. */
function calendarDay(value: string | null | undefined): Date | null {
  const m = value ? /^(\d{4})-(\d{2})-(\d{2})/.exec(value) : null;
  if (!m) return null;
  const d = new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  return Number.isNaN(d.getTime()) ? null : d;
}

/** A moment's local date ("29 Nov 2026" in en-GB), or an em dash for a missing or unreadable value. */
export function formatDate(value: string | Date | null | undefined): string {
  const d = parse(value);
  return d ? formatter('date').format(d) : EMPTY;
}

/** A YYYY-MM-DD date (a due date, an entry date) shown as that calendar day, or an em dash. */
export function formatDay(value: string | null | undefined): string {
  const d = calendarDay(value);
  return d ? formatter('date').format(d) : EMPTY;
}

/** A YYYY-MM-DD day written out with its weekday ("Sunday 29 November 2026"): a heading of a day's entries. */
export function formatDayLong(value: string | null | undefined): string {
  const d = calendarDay(value);
  return d ? formatter('dateLong').format(d) : EMPTY;
}

/** A moment's local date and time ("29 Nov 2026, 14:05" in en-GB), or an em dash. */
export function formatDateTime(value: string | Date | null | undefined): string {
  const d = parse(value);
  return d ? formatter('dateTime').format(d) : EMPTY;
}

/** A moment's local time of day ("14:05"; with seconds for a run's timeline), or '' when unreadable. */
export function formatTime(
  value: string | Date | null | undefined,
  opts: { seconds?: boolean } = {},
): string {
  const d = parse(value);
  return d ? formatter(opts.seconds ? 'timeSeconds' : 'time').format(d) : '';
}

/** The time for a moment of today, else its date: lists of recent things (threads, messages). */
export function formatRecent(value: string | null | undefined, now: Date = new Date()): string {
  const d = parse(value);
  if (!d) return '';
  return d.toDateString() === now.toDateString() ? formatTime(d) : formatDate(d);
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const two = (n: number) => String(n).padStart(2, '0');

/**
 * A date written into a record's name ("29 Nov 2026, 14:05", local time): stored and read by others
 * in other locales, so it is one unambiguous form (never 03/12 vs 12/03), not the writer's locale.
 */
export function formatStampForName(d: Date): string {
  return `${d.getDate()} ${MONTHS[d.getMonth()]} ${d.getFullYear()}, ${two(d.getHours())}:${two(d.getMinutes())}`;
}
