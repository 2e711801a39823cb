import { z } from 'zod';
import { MAX_PAGE_SIZE, ZRefId, ZSkip } from './common.ts';
import { ZOrgIds, ZOrgRef, ZSearch, ZUserRef } from './fields.ts';

export const FILES_PAGE_SIZE = 50;
/** Files accepted in one upload request. */
export const MAX_FILES_PER_UPLOAD = 20;
export const MAX_FILE_NAME_LENGTH = 255;

/**
 * How a file may be previewed: images, PDFs and text are shown inline (from a safe content type
 * decided by the server, never the uploader's claim); everything else is download only.
 */
export const FILE_KINDS = ['image', 'pdf', 'text', 'other'] as const;
export type TFileKind = (typeof FILE_KINDS)[number];

export const ZFileItem = z.object({
  id: z.string(),
  name: z.string(),
  /** The content type the server serves the file with (sniffed, from a safe allow-list). */
  content_type: z.string(),
  kind: z.enum(FILE_KINDS),
  /** Bytes. */
  size: z.number().int(),
  /** The owner. */
  user_id: z.string(),
  owner: ZUserRef.nullable(),
  /** The conversation the file was attached in, if any. */
  conversation_id: z.string().nullable(),
  shared_org_ids: z.array(z.string()),
  shared_organizations: z.array(ZOrgRef),
  /** The owner may rename, share and delete. */
  can_edit: z.boolean(),
  can_delete: z.boolean(),
  can_share: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type TFileItem = z.infer<typeof ZFileItem>;

/** GET /api/files: newest first; search matches the name. */
export const ZFileListQuery = z.object({
  search: ZSearch,
  skip: ZSkip,
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(FILES_PAGE_SIZE),
});
export type TFileListQuery = z.input<typeof ZFileListQuery>;

/** POST /api/files (multipart, one or more `files` parts); the query may attach them to a conversation. */
export const ZFileUploadQuery = z.object({
  conversation_id: ZRefId.optional(),
});

export const FILE_NAME_REQUIRED = 'File name is required.';
export const FILE_NAME_INVALID = 'File names cannot contain slashes or control characters.';

/** A display name: no path separators, no control characters (NUL included), not "." or "..". */
export const ZFileName = z
  .string({ message: FILE_NAME_REQUIRED })
  .trim()
  .min(1, FILE_NAME_REQUIRED)
  .max(MAX_FILE_NAME_LENGTH, `File names are at most ${MAX_FILE_NAME_LENGTH} characters.`)
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  .refine((s) => !/[/\\\u0000-\u001f\u007f]/.test(s), FILE_NAME_INVALID)
  .refine((s) => s !== '.' && s !== '..', FILE_NAME_INVALID);

/** PATCH /api/files/{id}: rename and/or replace the set of shared organizations (owner only). */
export const ZUpdateFileRequest = z.strictObject({
  name: ZFileName.optional(),
  shared_org_ids: ZOrgIds.optional(),
});
export type TUpdateFileRequest = z.input<typeof ZUpdateFileRequest>;
