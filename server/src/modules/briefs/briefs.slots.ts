import type { TBriefSchedule } from '@cc/contract';

/**
 * Scheduled times in the user's time zone, computed with `Intl` (the runtime's IANA data): no offset
 * is hard-coded, so daylight-saving changes move the UTC instant and keep the local time.
 */

interface LocalParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  /** ISO weekday, Monday = 1 */
  weekday: number;
}

const WEEKDAYS: Record<string, number> = { Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6, Sun: 7 };
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      weekday: 'short',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

export function localParts(instant: number, timeZone: string): LocalParts {
  const parts: Record<string, string> = {};
  for (const p of formatter(timeZone).formatToParts(new Date(instant))) parts[p.type] = p.value;
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    weekday: WEEKDAYS[parts.weekday] ?? 1,
  };
}

/** The UTC instant at which the wall clock of `timeZone` shows this local date and time. */
export function zonedInstant(
  d: { year: number; month: number; day: number },
  hour: number,
  minute: number,
  timeZone: string,
): number {
  const wall = Date.UTC(d.year, d.month - 1, d.day, hour, minute);
  let guess = wall;
  // Two passes settle the offset (the second corrects a guess that crossed a DST change).
  for (let i = 0; i < 2; i++) {
    const p = localParts(guess, timeZone);
    const shown = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute);
    guess += wall - shown;
  }
  return guess;
}

/**
 * The latest scheduled instant at or before `now` and not before `since` (when the schedule was saved),
 * or null. Only the latest: after downtime the scheduler produces one catch-up brief, not one per
 * missed slot.
 */
export function latestSlot(schedule: TBriefSchedule, now: Date, since: string | null): string | null {
  const [hour, minute] = schedule.time.split(':').map(Number);
  const today = localParts(now.getTime(), schedule.timezone);
  const days = new Set(schedule.weekdays);
  for (let back = 0; back <= 7; back++) {
    const date = new Date(Date.UTC(today.year, today.month - 1, today.day - back));
    const d = { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
    const weekday = ((date.getUTCDay() + 6) % 7) + 1;
    if (!days.has(weekday)) continue;
    const at = zonedInstant(d, hour, minute, schedule.timezone);
    if (at > now.getTime()) continue;
    const iso = new Date(at).toISOString();
    return since && iso < since ? null : iso;
  }
  return null;
}
