import { z } from 'zod';

// A missing field reads "Field required" rather than zod's type jargon, in every schema.
z.config({
  customError: (iss) =>
    iss.code === 'invalid_type' && iss.input === undefined ? 'Field required' : undefined,
});

/** Every error body the API returns: a message the screen can show, or field-level details (422). */
export const ZErrorBody = z.object({
  detail: z.union([
    z.string(),
    z.array(z.object({ loc: z.array(z.union([z.string(), z.number()])), msg: z.string(), type: z.string() })),
  ]),
  request_id: z.string().optional(),
});
export type TErrorBody = z.infer<typeof ZErrorBody>;

export const ZId = z.string().min(1).max(64);
export const ZIdParams = z.object({ id: ZId });

/** Why `""` is refused where an id may be left out: none is said by leaving it out or with null. */
export const EMPTY_ID_MESSAGE = 'An id cannot be empty: leave the field out or send null for none.';

/**
 * An id that names another record and may be left out (`organization_id`, `goal_id`, …): every such
 * field of the contract uses this one schema, so `""` is a 422 everywhere, never a write that fails
 * on a foreign key (a 500) or a silent "none".
 */
export const ZRefId = z.string().min(1, EMPTY_ID_MESSAGE).max(64);

/** ISO-8601 UTC timestamp string. */
export const ZTimestamp = z.string();

/** A basic e-mail pattern, shared by server validation and the forms. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const ZEmail = z
  .string()
  .trim()
  .max(254)
  .regex(EMAIL_PATTERN, 'Invalid email address')
  .transform((s) => s.toLowerCase());

/**
 * The largest value an `integer` column holds (PostgreSQL's int4): every integer a client sends that
 * reaches such a column, or a LIMIT/OFFSET, stops here, so PostgreSQL never sees an out-of-range
 * value (it would fail the query; SQLite would take it).
 */
export const MAX_INT32 = 2_147_483_647;

/** A page offset (`skip`). */
export const ZSkip = z.coerce.number().int().min(0).max(MAX_INT32).default(0);

/** A position or sequence number a list pages on (`before`, `after`), compared with an integer column. */
export const ZSeqCursor = (min: number) => z.coerce.number().int().min(min).max(MAX_INT32);

/** An event stream's resume cursor (`last_event_id`): a sequence number, or blank for none. */
export const ZEventCursor = z
  .string()
  .trim()
  .regex(/^\d{0,10}$/, 'A sequence number')
  .refine((s) => s === '' || Number(s) <= MAX_INT32, `At most ${MAX_INT32}`);

/**
 * A free-form JSON object a column stores as text (a tool's input schema, custom prompts): at most
 * `maxChars` characters once serialised, so no body fills a row with a megabyte of JSON.
 */
export const ZJsonObject = (maxChars: number) =>
  z.record(z.string(), z.unknown()).refine((v) => JSON.stringify(v).length <= maxChars, {
    message: `At most ${maxChars} characters of JSON`,
  });

/** Pagination used by every list endpoint: never more than 200 items a page. */
export const MAX_PAGE_SIZE = 200;
export const ZPageQuery = z.object({
  skip: ZSkip,
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(100),
});
