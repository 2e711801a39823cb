import { z } from 'zod';
import { type TRecordCitation, ZRecordCitation } from './citations.ts';
import { MAX_PAGE_SIZE, ZSkip } from './common.ts';

/** A record a brief used: the one citation shape of every AI output (citations.ts). */
export const ZCitation = ZRecordCitation;
export type TCitation = TRecordCitation;

export const ZBriefItem = z.object({ text: z.string(), citations: z.array(ZCitation) });
export type TBriefItem = z.infer<typeof ZBriefItem>;

export const BRIEF_SECTION_KEYS = [
  'kpi_moves',
  'goals_at_risk',
  'my_tasks',
  'items_waiting',
  'comms_waiting',
  'runs_failed',
  'why_it_moved',
] as const;
export type TBriefSectionKey = (typeof BRIEF_SECTION_KEYS)[number];

/** What a section says when its facts are too thin to say anything (never a guess). */
export const BRIEF_NOT_ENOUGH_DATA = 'Not enough data';

export const ZBriefSection = z.object({
  key: z.enum(BRIEF_SECTION_KEYS),
  title: z.string(),
  /** false: the section's only item is "Not enough data" */
  enough_data: z.boolean(),
  items: z.array(ZBriefItem),
});
export type TBriefSection = z.infer<typeof ZBriefSection>;

/** sent | not_delivered (with `reason`) | not_configured (no SMTP_URL: the brief is on the page only). */
export const BRIEF_DELIVERY_STATUSES = ['sent', 'not_delivered', 'not_configured'] as const;
export const ZBriefDelivery = z.object({
  status: z.enum(BRIEF_DELIVERY_STATUSES),
  reason: z.string().nullable(),
  delivered_at: z.string().nullable(),
});

export const ZBrief = z.object({
  id: z.string(),
  user_id: z.string(),
  period_start: z.string(),
  period_end: z.string(),
  created_at: z.string(),
  trigger: z.enum(['manual', 'scheduled']),
  summary: z.string(),
  /** checked: every number of the written summary is one of the facts'; replaced: it was not, the facts speak */
  summary_status: z.enum(['checked', 'replaced']),
  actions: z.array(ZBriefItem),
  sections: z.array(ZBriefSection),
  delivery: ZBriefDelivery,
});
export type TBrief = z.infer<typeof ZBrief>;

export const ZBriefListQuery = z.object({
  skip: ZSkip,
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(20),
});

/** An IANA time zone name the runtime knows ("Europe/Berlin", "UTC"). */
export function isTimeZone(name: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/.test(name)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** ISO weekdays, Monday = 1 … Sunday = 7. */
export const ZBriefSchedule = z.strictObject({
  enabled: z.boolean(),
  weekdays: z
    .array(z.number().int().min(1).max(7))
    .min(1, 'Pick at least one day')
    .max(7)
    .refine((d) => new Set(d).size === d.length, { message: 'Each weekday once' }),
  time: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Time must be HH:MM'),
  timezone: z.string().max(64).refine(isTimeZone, { message: 'Unknown time zone' }),
});
export type TBriefSchedule = z.infer<typeof ZBriefSchedule>;

/** The schedule the Profile page offers before the user saves one: weekdays at 07:30, off. */
export const DEFAULT_BRIEF_WEEKDAYS = [1, 2, 3, 4, 5];
export const DEFAULT_BRIEF_TIME = '07:30';
