import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AuthUser } from '../../platform/auth/authenticate.ts';
import type { AppContext } from '../../platform/context.ts';
import { AppError } from '../../platform/errors.ts';
import { bytesInWords, limitMessages } from '../../platform/limits/limit-messages.ts';
import { limitHeaders, waitInWords } from '../../platform/limits/limit-state.ts';
import { callerKey, limitError } from '../../platform/limits/limits.ts';
import * as repo from './files.repository.ts';

/**
 * Upload limits: a count of upload requests per minute (in process) and a per-user storage quota
 * summed from the database, so it holds across instances and restarts.
 */

/** Bytes the caller may still store. */
export async function storageLeft(ctx: AppContext, userId: string): Promise<number> {
  const used = await repo.storageUsedBy(ctx.db, userId);
  return Math.max(0, ctx.config.limits.storageQuotaBytes - used);
}

/** Counts one upload request; over the limit, 429 says when to retry and how much storage is left. */
export async function enforceUploadLimit(
  ctx: AppContext,
  caller: AuthUser,
  req: FastifyRequest,
  reply: FastifyReply,
): Promise<void> {
  const { uploads } = ctx.limits;
  const { allowed, state } = uploads.take(callerKey(req));
  if (allowed) {
    reply.headers(limitHeaders(state, false));
    return;
  }
  const left = bytesInWords(await storageLeft(ctx, caller.id));
  throw limitError(
    state,
    `${limitMessages.uploads(uploads.max, left)} Please try again in ${waitInWords(state.resetSeconds)}.`,
  );
}

/**
 * 413 when the staged files do not fit in what is left of the caller's storage; the detail names the
 * first file that does not fit and how much is left. Nothing is stored in that case (the caller
 * discards the staged files).
 */
export async function checkStorageQuota(
  ctx: AppContext,
  caller: AuthUser,
  staged: readonly { name: string; size: number }[],
): Promise<void> {
  const quota = ctx.config.limits.storageQuotaBytes;
  let left = await storageLeft(ctx, caller.id);
  for (const f of staged) {
    if (f.size > left) {
      throw new AppError(
        413,
        `"${f.name}" (${bytesInWords(f.size)}) is larger than your remaining storage: ${bytesInWords(left)} of ${bytesInWords(quota)} left.`,
      );
    }
    left -= f.size;
  }
}
