import { z } from 'zod';

/** Field schemas shared by the workspace domains (goals, advice, tasks, journals, contacts). */

const DATE_INPUT = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/** True for a real calendar date written YYYY-MM-DD (no 2026-02-30). */
export function isValidDate(s: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}

/** Today's date in UTC as YYYY-MM-DD. */
export function todayUtc(now: Date = new Date()): string {
  return now.toISOString().slice(0, 10);
}

/**
 * A date-only value (entry_date, due_date, interaction date) stored as YYYY-MM-DD. A full ISO
 * date-time is accepted too and cut to its date part as written (the sender's local date).
 */
export const ZDateOnly = z
  .string()
  .trim()
  .regex(DATE_INPUT, 'Use the date format YYYY-MM-DD')
  .transform((s) => s.slice(0, 10))
  .refine(isValidDate, 'Invalid date');

/** A boolean query parameter: true/false/1/0 (a bare `?x` is not true). */
export const ZQueryBool = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0'])])
  .transform((v) => v === true || v === 'true' || v === '1');

/** Optional free text: trimmed, and blank becomes null. */
export const ZOptionalText = (max: number) =>
  z
    .string()
    .max(max)
    .nullable()
    .transform((s) => (s == null || s.trim() === '' ? null : s.trim()));

/** Optional markdown/long text: kept as typed, blank becomes null. */
export const ZOptionalBody = (max: number) =>
  z
    .string()
    .max(max)
    .nullable()
    .transform((s) => (s == null || s.trim() === '' ? null : s));

/** A person in a response: the app user's id, display name and e-mail. */
export const ZUserRef = z.object({ id: z.string(), name: z.string(), email: z.string() });
export type TUserRef = z.infer<typeof ZUserRef>;

/** An organization named in a response (task shares). */
export const ZOrgRef = z.object({ id: z.string(), name: z.string() });
export type TOrgRef = z.infer<typeof ZOrgRef>;

/** A set of organization ids (sharing): at most 100, duplicates removed. */
export const ZOrgIds = z
  .array(z.string().min(1).max(64))
  .max(100)
  .transform((ids) => [...new Set(ids)]);

/** Free-text search in list queries. */
export const ZSearch = z.string().max(200).optional();
