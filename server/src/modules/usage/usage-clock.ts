import type { AppContext } from '../../platform/context.ts';

/**
 * The clock spend governance reads (which month a call counts in, when a budget resets). Injectable
 * per app so tests can cross a month boundary without waiting for one.
 */
const clocks = new WeakMap<object, () => Date>();

export function usageNow(ctx: Pick<AppContext, 'db'>): Date {
  return clocks.get(ctx.db)?.() ?? new Date();
}

/** Tests: make this app's usage clock read `now()` (undefined restores the real clock). */
export function setUsageClock(ctx: Pick<AppContext, 'db'>, now?: () => Date): void {
  if (now) clocks.set(ctx.db, now);
  else clocks.delete(ctx.db);
}

/** 'YYYY-MM' of a date (UTC). */
export const monthOf = (d: Date) => d.toISOString().slice(0, 7);
/** 'YYYY-MM-DD' of a date (UTC). */
export const dayOf = (d: Date) => d.toISOString().slice(0, 10);

/** The first day of the month after `d` (UTC), YYYY-MM-DD: when a monthly budget starts again. */
export function resetsOn(d: Date): string {
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1)).toISOString().slice(0, 10);
}

/** "1 December" for a YYYY-MM-DD. */
export function spokenDay(isoDay: string): string {
  const d = new Date(`${isoDay}T00:00:00Z`);
  return `${d.getUTCDate()} ${d.toLocaleString('en-GB', { month: 'long', timeZone: 'UTC' })}`;
}

/** The first and last day of the month of `d`, YYYY-MM-DD. */
export function monthRange(d: Date): { since: string; until: string } {
  const first = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1));
  const last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0));
  return { since: dayOf(first), until: dayOf(last) };
}
