import { randomUUID } from 'node:crypto';
import { REMEMBER_ME_TTL_SECONDS, SESSION_TTL_SECONDS, type TTokenResponse } from '@cc/contract';
import { dummyVerify, verifyPassword } from '../../platform/auth/passwords.ts';
import { insertSession, revokeSession } from '../../platform/auth/sessions.repository.ts';
import type { AppContext } from '../../platform/context.ts';
import { unauthorized } from '../../platform/errors.ts';
import { limitMessages } from '../../platform/limits/limit-messages.ts';
import { lockoutError } from '../../platform/limits/limits.ts';
import { findCredentials } from '../users/users.service.ts';

const BAD_CREDENTIALS = 'Incorrect email or password';

/** Checks the password and opens a session: 30 days with "remember me", otherwise 24 hours. */
export async function login(
  ctx: AppContext,
  input: { username: string; password: string; remember_me: boolean },
  userAgent: string | null,
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
    throw unauthorized(BAD_CREDENTIALS);
  }
  ctx.loginGuard.succeed(email);
  return openSession(
    ctx,
    user.id,
    input.remember_me ? REMEMBER_ME_TTL_SECONDS : SESSION_TTL_SECONDS,
    userAgent,
  );
}

/** A new session for a signed-in person (password or single sign-on) and its access token. */
export async function openSession(
  ctx: AppContext,
  userId: string,
  ttlSeconds: number,
  userAgent: string | null,
): Promise<TTokenResponse> {
  const expires = new Date(Date.now() + ttlSeconds * 1000);
  const sid = randomUUID();
  await insertSession(ctx.db, {
    id: sid,
    user_id: userId,
    expires_at: expires.toISOString(),
    user_agent: userAgent?.slice(0, 300) ?? null,
  });
  const access_token = await ctx.signer.sign({ sub: userId, sid }, expires);
  return { access_token, token_type: 'bearer', expires_at: expires.toISOString() };
}

export const logout = (ctx: AppContext, sessionId: string) => revokeSession(ctx.db, sessionId);
