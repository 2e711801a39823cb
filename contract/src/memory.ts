import { z } from 'zod';
import { ZRefId, ZTimestamp } from './common.ts';

/** Longest text accepted for memory mining (a conversation turn or two). */
export const MAX_MEMORY_MINE_CHARS = 20_000;

export const ZMineMemoryRequest = z.object({
  content: z.string().max(MAX_MEMORY_MINE_CHARS),
  metadata: z
    .object({ conversation_id: ZRefId.nullish() })
    .loose()
    // Only conversation_id is read; the rest is accepted for clients that send more, within a bound.
    .refine((v) => JSON.stringify(v).length <= MAX_MEMORY_MINE_CHARS, {
      message: `At most ${MAX_MEMORY_MINE_CHARS} characters of JSON`,
    })
    .optional(),
});
export type TMineMemoryRequest = z.input<typeof ZMineMemoryRequest>;

export const ZMemory = z.object({
  id: z.string(),
  content: z.string(),
  conversation_id: z.string().nullable(),
  created_at: ZTimestamp,
  updated_at: ZTimestamp,
});
export type TMemory = z.infer<typeof ZMemory>;

export const ZMineMemoryResponse = z.object({
  /** facts stored by this call (duplicates of known facts are skipped) */
  added: z.array(ZMemory),
  /** how many extracted facts were already known */
  skipped: z.number().int(),
});
export type TMineMemoryResponse = z.infer<typeof ZMineMemoryResponse>;
