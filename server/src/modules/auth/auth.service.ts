import { randomUUID } from 'node:crypto';
import { REMEMBER_ME_TTL_SECONDS, SESSION_TTL_SECONDS, type TTokenResponse } from '@cc/contract';
import { withTx } from '../../db/index.ts';
import { dummyVerify, verifyPassword } from '../../platform/auth/passwords.ts';
import { revokeAllKeysOf } from '../../platform/auth/api-keys.repository.ts';
import { insertSession, revokeSession, revokeUserSessions } from '../../platform/auth/sessions.repository.ts';
import type { AppContext } from '../../platform/context.ts';
import { unauthorized } from '../../platform/errors.ts';
import { limitMessages } from '../../platform/limits/limit-messages.ts';
import { lockoutError } from '../../platform/limits/limits.ts';
import { type ActivityVia, recordActivity, recordActivitySafely } from '../activity/activity.ledger.ts';
import { findCredentials, notePasswordSignIn } from '../users/users.service.ts';

const BAD_CREDENTIALS = 'Incorrect email or password';

/** Checks the password and opens a session: 30 days with "remember me", otherwise 24 hours. */
export async function login(
  ctx: AppContext,
  input: { username: string; password: string; remember_me: boolean },
  userAgent: string | null,
  /** Where the request came from (the ledger's `via`). */
  via: ActivityVia,
): Promise<TTokenResponse> {
  const email = input.username.trim().toLowerCase();
  if (ctx.loginGuard.isLocked(email)) {
    throw lockoutError(ctx.loginGuard, email, limitMessages.signIn);
  }
  const user = await findCredentials(ctx, email);
  const ok = user
    ? await verifyPassword(user.password_hash, input.password)
    : await dummyVerify(input.password);
  if (!user || !ok) {
    ctx.loginGuard.fail(email);
    await recordFailedSignIn(ctx, email, user?.id ?? null, via);
    throw unauthorized(BAD_CREDENTIALS);
  }
  ctx.loginGuard.succeed(email);
  await notePasswordSignIn(ctx, user);
  return openSession(
    ctx,
    user.id,
    input.remember_me ? REMEMBER_ME_TTL_SECONDS : SESSION_TTL_SECONDS,
    userAgent,
    `Signed in${input.remember_me ? ' (remember me)' : ''}`,
    via,
  );
}

/** A new session for a signed-in person (password or single sign-on) and its access token. */
export async function openSession(
  ctx: AppContext,
  userId: string,
  ttlSeconds: number,
  userAgent: string | null,
  /** How the person signed in, for the activity ledger. */
  summary: string,
  via: ActivityVia,
): Promise<TTokenResponse> {
  const expires = new Date(Date.now() + ttlSeconds * 1000);
  const sid = randomUUID();
  await withTx(ctx.db, async (trx) => {
    await insertSession(trx, {
      id: sid,
      user_id: userId,
      expires_at: expires.toISOString(),
      user_agent: userAgent?.slice(0, 300) ?? null,
    });
    await recordActivity(trx, {
      actorUserId: userId,
      via,
      action: 'auth.sign_in',
      entityType: 'user',
      entityId: userId,
      summary,
      after: { session_expires_at: expires.toISOString(), user_agent: userAgent?.slice(0, 300) ?? null },
    });
  });
  const access_token = await ctx.signer.sign({ sub: userId, sid }, expires);
  return { access_token, token_type: 'bearer', expires_at: expires.toISOString() };
}

/** A failed sign-in, and the lockout when this failure is the one that locks the account. */
async function recordFailedSignIn(
  ctx: AppContext,
  email: string,
  userId: string | null,
  via: ActivityVia,
): Promise<void> {
  // No write to join: the entry stands alone, and a ledger fault never changes the answer (401).
  await recordActivitySafely(ctx.db, {
    actorUserId: userId,
    via,
    action: 'auth.sign_in_failed',
    entityType: 'user',
    entityId: userId,
    summary: `Failed sign-in for ${email}`,
  });
  if (ctx.loginGuard.isLocked(email)) {
    await recordActivitySafely(ctx.db, {
      actorUserId: userId,
      via,
      action: 'auth.lockout',
      entityType: 'user',
      entityId: userId,
      summary: `Sign-in locked for ${email} after ${ctx.loginGuard.maxFailures} failed attempts`,
    });
  }
}

export async function logout(
  ctx: AppContext,
  sessionId: string,
  userId: string | null,
  via: ActivityVia,
): Promise<void> {
  await withTx(ctx.db, async (trx) => {
    await revokeSession(trx, sessionId);
    if (userId) {
      await recordActivity(trx, {
        actorUserId: userId,
        via,
        action: 'auth.sign_out',
        entityType: 'user',
        entityId: userId,
        summary: 'Signed out',
      });
    }
  });
}

/**
 * Signs the account out everywhere: every session (this one too) and every API key end at once, so
 * whoever took a session or a key is cut off with the person.
 */
export async function logoutEverywhere(ctx: AppContext, userId: string, via: ActivityVia): Promise<void> {
  await withTx(ctx.db, async (trx) => {
    await revokeUserSessions(trx, userId);
    const keys = await revokeAllKeysOf(trx, userId);
    await recordActivity(trx, {
      actorUserId: userId,
      via,
      action: 'auth.sign_out_everywhere',
      entityType: 'user',
      entityId: userId,
      summary: `Signed out everywhere (every session ended, ${keys} API key${keys === 1 ? '' : 's'} revoked)`,
    });
  });
}
