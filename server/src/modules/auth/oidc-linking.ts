import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { SESSION_TTL_SECONDS, type TTokenResponse } from '@cc/contract';
import { nowIso, withTx } from '../../db/index.ts';
import { revokeAllKeysOf } from '../../platform/auth/api-keys.repository.ts';
import { verifyPassword } from '../../platform/auth/passwords.ts';
import { revokeUserSessions } from '../../platform/auth/sessions.repository.ts';
import type { AppContext } from '../../platform/context.ts';
import { badRequest, unauthorized } from '../../platform/errors.ts';
import { limitMessages } from '../../platform/limits/limit-messages.ts';
import { lockoutError } from '../../platform/limits/limits.ts';
import { type ActivityVia, recordActivity } from '../activity/activity.ledger.ts';
import { ssoSignUpLevel } from '../users/users.policy.ts';
import { createSsoAccount, credentialsById, findCredentials } from '../users/users.service.ts';
import { openSession } from './auth.service.ts';
import * as repo from './oidc.repository.ts';

// Which account a provider identity signs in to (issue 46 row 2). A provider vouching for an e-mail
// does not make an account with that e-mail the provider user's: someone may have signed up with it
// first (self sign-up proves nothing until its link is opened) or had it set on a managed account. So
// the identity links by itself only to an account whose e-mail was verified here and whose password
// was used since (its owner holds both), never to a platform administrator; otherwise the person types
// that account's password once. A first link ends the account's other sessions and API keys.

/** How long the password page may take to confirm a link. */
const LINK_TTL_MS = 10 * 60_000;
export const SSO_LINK_EXPIRED =
  'This request to link single sign-on has expired or was already used. Please sign in with single sign-on again.';
const WRONG_PASSWORD = 'Incorrect password';

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

type Account = NonNullable<Awaited<ReturnType<typeof findCredentials>>>;

/** Whether the identity may link to the account without its password. */
export function mayAutoLink(a: Account): boolean {
  if (a.user_level === 'admin') return false;
  if (!a.email_verified_at || !a.password_sign_in_at) return false;
  return a.password_sign_in_at >= a.email_verified_at;
}

/** The account an identity signs in to now, or the code of the page that asks for a password first. */
export type SsoOutcome = { userId: string } | { linkCode: string };

export async function accountFor(
  ctx: AppContext,
  identity: { issuer: string; subject: string },
  email: string,
  claims: Record<string, unknown>,
  via: ActivityVia,
): Promise<SsoOutcome> {
  const linked = await repo.findIdentity(ctx.db, identity.issuer, identity.subject);
  if (linked) return { userId: linked.user_id };
  const existing = await findCredentials(ctx, email);
  if (existing && !mayAutoLink(existing)) return { linkCode: await pendingLink(ctx, existing.id, identity) };
  if (existing) {
    await linkFirstTime(ctx, existing.id, identity, via, 'verified e-mail, password used since');
    return { userId: existing.id };
  }
  const domain = email.split('@')[1] ?? '';
  const allowed = ctx.config.oidc?.allowedDomains.includes(domain) ?? false;
  const userId = await createSsoAccount(
    ctx,
    {
      email,
      // No password is ever told to anyone: this account signs in through its provider.
      password: randomBytes(32).toString('base64url'),
      user_level: ssoSignUpLevel(allowed),
      first_name: typeof claims.given_name === 'string' ? claims.given_name.slice(0, 100) : null,
      last_name: typeof claims.family_name === 'string' ? claims.family_name.slice(0, 100) : null,
    },
    via,
  );
  await repo.insertIdentity(ctx.db, { id: randomUUID(), user_id: userId, ...identity, created_at: nowIso() });
  return { userId };
}

async function pendingLink(ctx: AppContext, userId: string, identity: { issuer: string; subject: string }) {
  const code = randomBytes(32).toString('base64url');
  await repo.insertExchange(ctx.db, {
    state: randomUUID(),
    code_verifier: '',
    nonce: '',
    created_at: nowIso(),
    user_id: userId,
    exchange_hash: sha256(code),
    link_issuer: identity.issuer,
    link_subject: identity.subject,
  });
  return code;
}

/** Links the identity and ends every session and API key the account had before. */
async function linkFirstTime(
  ctx: AppContext,
  userId: string,
  identity: { issuer: string; subject: string },
  via: ActivityVia,
  how: string,
): Promise<void> {
  await withTx(ctx.db, async (trx) => {
    await repo.insertIdentity(trx, { id: randomUUID(), user_id: userId, ...identity, created_at: nowIso() });
    await revokeUserSessions(trx, userId);
    const keys = await revokeAllKeysOf(trx, userId);
    await recordActivity(trx, {
      actorUserId: userId,
      via,
      action: 'auth.sso_linked',
      entityType: 'user',
      entityId: userId,
      summary: `Linked single sign-on (${how}); other sessions and ${keys} API key(s) ended`,
      after: { issuer: identity.issuer },
    });
  });
}

/** POST /api/auth/oidc/link: the account's password confirms the pending link, then a session opens. */
export async function confirmLink(
  ctx: AppContext,
  input: { code: string; password: string },
  userAgent: string | null,
  via: ActivityVia,
): Promise<TTokenResponse> {
  const notBefore = new Date(Date.now() - LINK_TTL_MS).toISOString();
  const link = await repo.findPendingLink(ctx.db, sha256(input.code), notBefore);
  const account = link?.user_id ? await credentialsById(ctx, link.user_id) : undefined;
  if (!link?.link_issuer || !link.link_subject || !account) throw badRequest(SSO_LINK_EXPIRED);
  // Guessed like a sign-in, so locked like one.
  if (ctx.loginGuard.isLocked(account.email)) {
    throw lockoutError(ctx.loginGuard, account.email, limitMessages.signIn);
  }
  if (!(await verifyPassword(account.password_hash, input.password))) {
    ctx.loginGuard.fail(account.email);
    throw unauthorized(WRONG_PASSWORD);
  }
  ctx.loginGuard.succeed(account.email);
  if (!(await repo.takePendingLink(ctx.db, link.state))) throw badRequest(SSO_LINK_EXPIRED);
  const identity = { issuer: link.link_issuer, subject: link.link_subject };
  await linkFirstTime(ctx, account.id, identity, via, "confirmed with the account's password");
  return openSession(ctx, account.id, SESSION_TTL_SECONDS, userAgent, 'Signed in with single sign-on', via);
}
