import { randomUUID } from 'node:crypto';
import { type Db, nowIso, withTx } from '../../db/index.ts';
import type { AuthUser } from '../../platform/auth/authenticate.ts';
import { revokeUserSessions } from '../../platform/auth/sessions.repository.ts';
import type { AppContext } from '../../platform/context.ts';
import { AppError, badRequest, conflict, unavailable } from '../../platform/errors.ts';
import {
  accountMailSettings,
  hashOneTimeSecret,
  mailConfigured,
  newOneTimeSecret,
  secretLink,
} from '../../platform/mail/app-mail.ts';
import { sendMail } from '../../platform/mail/mailer.ts';
import { type ActivityVia, recordActivity } from '../activity/activity.ledger.ts';
import { syncMemberEmail } from '../organizations/memberships.service.ts';
import * as links from './email-links.repository.ts';
import * as repo from './users.repository.ts';

// Who owns an e-mail address is proven by a link sent to it (issue 46 rows 1-2): self sign-up sends a
// verification link; an organization admin's change of a managed account's e-mail waits for the new
// address to confirm. Both land on the web page /confirm-email, which posts the secret back.

const LINK_TTL_MS = 24 * 3600_000;
export const CONFIRM_PAGE = '/confirm-email';
export const EMAIL_LINK_USED = 'This confirmation link has expired or was already used.';
export const EMAIL_CHANGE_NEEDS_MAIL =
  'A changed e-mail address takes effect once the new address confirms it, and no mail server is configured to send the link. Ask a platform administrator to change it.';
export const EMAIL_CHANGE_NOT_SENT =
  'The confirmation e-mail could not be sent, so the e-mail address is unchanged. Please try again later.';

async function issueLink(db: Db, userId: string, purpose: 'verify' | 'change', email: string) {
  const { secret, hash } = newOneTimeSecret();
  const now = Date.now();
  await links.replaceEmailLink(db, {
    id: randomUUID(),
    user_id: userId,
    purpose,
    email: email.toLowerCase(),
    token_hash: hash,
    created_at: new Date(now).toISOString(),
    expires_at: new Date(now + LINK_TTL_MS).toISOString(),
  });
  return secret;
}

/** Sends a self-registered account the link that verifies its address; false when it did not go out. */
export async function sendVerificationLink(
  ctx: AppContext,
  user: { id: string; email: string; first_name?: string | null },
): Promise<boolean> {
  if (!mailConfigured(ctx.config)) return false;
  const secret = await issueLink(ctx.db, user.id, 'verify', user.email);
  const link = secretLink(ctx.config, CONFIRM_PAGE, secret);
  const failed = await sendMail(accountMailSettings(ctx.config), {
    to: user.email,
    subject: 'Confirm your e-mail address for Command Centre',
    text: `Hello ${user.first_name?.trim() || user.email},\n\nPlease confirm that this is your e-mail address by opening this link within 24 hours:\n${link}\n\nIf you did not sign up for Command Centre, ignore this message.\n`,
  });
  return failed === null;
}

/** POST /api/users/me/email-verification: the link again (the waitlist page offers it). */
export async function resendVerification(ctx: AppContext, me: AuthUser): Promise<{ email_sent: boolean }> {
  const row = await repo.findUserById(ctx.db, me.id);
  if (row?.email_verified_at) throw conflict('Your e-mail address is already verified.');
  return { email_sent: await sendVerificationLink(ctx, me) };
}

/**
 * An organization admin's change of a managed account's e-mail: nothing changes until the new address
 * opens the link. Refused (422) when no mail server could send it, 503 when the server refused it.
 */
export async function requestEmailChange(
  ctx: AppContext,
  user: { id: string; email: string },
  newEmail: string,
  by: { actorId: string | null; via: ActivityVia },
): Promise<void> {
  if (!mailConfigured(ctx.config)) throw new AppError(422, EMAIL_CHANGE_NEEDS_MAIL);
  const secret = await issueLink(ctx.db, user.id, 'change', newEmail);
  const link = secretLink(ctx.config, CONFIRM_PAGE, secret);
  const failed = await sendMail(accountMailSettings(ctx.config), {
    to: newEmail,
    subject: 'Confirm the new e-mail address of your Command Centre account',
    text: `An administrator of your organization changed the e-mail address of your Command Centre account (${user.email}) to this address.\n\nThe change takes effect once you open this link within 24 hours:\n${link}\n\nIf you did not expect this, ignore this message: the account keeps its current address.\n`,
  });
  if (failed !== null) {
    await links.deleteEmailLinks(ctx.db, user.id, 'change');
    throw unavailable(EMAIL_CHANGE_NOT_SENT);
  }
  await recordActivity(ctx.db, {
    actorUserId: by.actorId,
    via: by.via,
    action: 'user.email_change_requested',
    entityType: 'user',
    entityId: user.id,
    summary: `Asked ${newEmail} to confirm it as the new e-mail of ${user.email}`,
    after: { pending_email: newEmail },
  });
}

/** POST /api/auth/email/confirm: the link's secret verifies the address, or makes the pending change. */
export async function confirmEmailLink(
  ctx: AppContext,
  token: string,
  via: ActivityVia,
): Promise<{ purpose: 'verify' | 'change'; email: string }> {
  return withTx(ctx.db, async (trx) => {
    const now = nowIso();
    const link = await links.takeEmailLink(trx, hashOneTimeSecret(token), now);
    if (!link) throw badRequest(EMAIL_LINK_USED);
    const user = await repo.findUserById(trx, link.user_id);
    if (!user) throw badRequest(EMAIL_LINK_USED);
    if (link.purpose === 'verify') {
      // A link sent to an address the account no longer has proves nothing about the account.
      if (user.email !== link.email) throw badRequest(EMAIL_LINK_USED);
      await repo.updateUserColumns(trx, user.id, { email_verified_at: now });
      return { purpose: 'verify' as const, email: link.email };
    }
    if (await repo.emailTaken(trx, link.email, user.id)) {
      throw conflict('An account with this email already exists.');
    }
    await repo.updateUserColumns(trx, user.id, {
      email: link.email,
      email_verified_at: now,
      email_changed_at: now,
      updated_at: now,
    });
    await syncMemberEmail({ ...ctx, db: trx }, user.id, link.email);
    await revokeUserSessions(trx, user.id);
    await recordActivity(trx, {
      actorUserId: user.id,
      via,
      action: 'user.email_changed',
      entityType: 'user',
      entityId: user.id,
      summary: `Confirmed ${link.email} as the new e-mail of ${user.email} (sessions signed out)`,
      before: { email: user.email },
      after: { email: link.email },
    });
    return { purpose: 'change' as const, email: link.email };
  });
}

/** user id → the new e-mail each of these accounts is waiting to confirm. */
export async function pendingEmailsOf(
  ctx: AppContext,
  userIds: readonly string[],
): Promise<Map<string, string>> {
  if (!userIds.length) return new Map();
  const rows = await links.pendingEmailChanges(ctx.db, userIds, nowIso());
  return new Map(rows.map((r) => [r.user_id, r.email]));
}
