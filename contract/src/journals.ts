import { z } from 'zod';
import { MAX_PAGE_SIZE, ZRefId, ZSkip } from './common.ts';
import { ZDateOnly, ZSearch } from './fields.ts';

/** Notes load with skip 0 and limit 100; an entry shows 3 lines collapsed (spec section 9). */
export const NOTES_PAGE_SIZE = 100;
export const NOTE_COLLAPSED_LINES = 3;
export const NOTE_CONTENT_REQUIRED = 'Content is required.';
export const NOTE_SORTS = ['newest', 'oldest'] as const;
export type TNoteSort = (typeof NOTE_SORTS)[number];

export const ZJournal = z.object({
  id: z.string(),
  user_id: z.string(),
  /** Markdown; render sanitized. */
  content: z.string(),
  /** YYYY-MM-DD */
  entry_date: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type TJournal = z.infer<typeof ZJournal>;

const ZNoteContent = z
  .string({ message: NOTE_CONTENT_REQUIRED })
  .max(100_000)
  .refine((s) => s.trim() !== '', NOTE_CONTENT_REQUIRED);

/** POST /api/journals/: entry_date defaults to today (UTC); user_id is accepted and ignored. */
export const ZCreateJournalRequest = z.strictObject({
  content: ZNoteContent,
  entry_date: ZDateOnly.optional(),
  user_id: ZRefId.nullable().optional(),
});
export type TCreateJournalRequest = z.input<typeof ZCreateJournalRequest>;

/** PUT /api/journals/{id}: content required; entry_date left out stays as it is. */
export const ZUpdateJournalRequest = ZCreateJournalRequest;
export type TUpdateJournalRequest = z.input<typeof ZUpdateJournalRequest>;

export const ZJournalListQuery = z.object({
  skip: ZSkip,
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(NOTES_PAGE_SIZE),
  /** Text in the content, case-insensitive. */
  search: ZSearch,
  /** Inclusive entry_date range. */
  from: ZDateOnly.optional(),
  to: ZDateOnly.optional(),
  /** newest (default): latest entry_date first, then latest created; oldest: the reverse. */
  sort: z.enum(NOTE_SORTS).default('newest'),
});
export type TJournalListQuery = z.input<typeof ZJournalListQuery>;
