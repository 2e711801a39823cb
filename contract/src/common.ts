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

/** Pagination used by every list endpoint: never more than 200 items a page. */
export const MAX_PAGE_SIZE = 200;
export const ZPageQuery = z.object({
  skip: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(100),
});
