const dateFormat = new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'short', day: 'numeric' });

/** A short local date ("12 Mar 2026"), or an em dash for a missing or unreadable value. */
export function formatDate(value: string | null | undefined): string {
  if (!value) return '—';
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? '—' : dateFormat.format(d);
}

const dayFormat = new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'short', day: 'numeric' });

/** A YYYY-MM-DD date shown as that calendar day (no time-zone shift), or an em dash. */
export function formatDay(value: string | null | undefined): string {
  if (!value) return '—';
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(value);
  if (!m) return '—';
  return dayFormat.format(new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
}
