import { z } from 'zod';
import { ZId, ZSeqCursor, ZTimestamp } from './common.ts';

/** Where a write came from: the web app, another API client, the AI for its user, or a run. */
export const ZActivityVia = z.union([z.enum(['ui', 'api', 'ai']), z.string().regex(/^run:[\w-]{1,64}$/)]);

/** One entry of the activity ledger (issue 19 §3). `before`/`after` never hold secrets. */
export const ZActivityEntry = z.object({
  id: z.string(),
  ts: ZTimestamp,
  actor_user_id: z.string().nullable(),
  /** The actor's display name (null once the account is gone: the id stays). */
  actor_name: z.string().nullable(),
  via: z.string(),
  action: z.string(),
  entity_type: z.string(),
  entity_id: z.string().nullable(),
  summary: z.string(),
  before: z.unknown().nullable(),
  after: z.unknown().nullable(),
  undoable: z.boolean(),
  /** An undo of this entry has been recorded. */
  undone: z.boolean(),
  /** The caller may undo it now (undoable, not undone, theirs or the caller is a platform admin). */
  can_undo: z.boolean(),
});
export type TActivityEntry = z.infer<typeof ZActivityEntry>;

const ZDay = z
  .string()
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}(T[\d:.]+Z?)?$/, 'An ISO date or UTC time');

/** Filters shared by the list and the export. */
export const ZActivityFilters = z.object({
  /** An actor's user id (a platform admin's filter; others only ever see their own). */
  actor: ZId.optional(),
  entity_type: z.string().trim().min(1).max(64).optional(),
  action: z.string().trim().min(1).max(64).optional(),
  /** `ai`: only what the AI or a run did (via `ai` or `run:…`); `people`: only the web app and API clients. */
  source: z.enum(['ai', 'people']).optional(),
  /** Entries at or after this date or time. */
  since: ZDay.optional(),
  /** Entries before this time (a bare date includes that whole day). */
  until: ZDay.optional(),
});

export const ACTIVITY_PAGE_SIZE = 50;

export const ZActivityListQuery = ZActivityFilters.extend({
  /** The `next_cursor` of the previous page. */
  cursor: ZSeqCursor(1).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(ACTIVITY_PAGE_SIZE),
});

export const ZActivityList = z.object({
  items: z.array(ZActivityEntry),
  /** Pass as `cursor` for the next (older) page; null at the end. */
  next_cursor: z.number().int().nullable(),
});
export type TActivityList = z.infer<typeof ZActivityList>;

export const ZActivityExportQuery = ZActivityFilters.extend({
  format: z.enum(['csv', 'jsonl']).default('csv'),
});

export const ACTIVITY_ALREADY_UNDONE = 'This change has already been undone.';
export const ACTIVITY_NOT_UNDOABLE = 'This entry cannot be undone.';
