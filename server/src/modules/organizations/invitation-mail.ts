import type { AuthUser } from '../../platform/auth/authenticate.ts';
import type { AppContext } from '../../platform/context.ts';
import { accountMailSettings, mailConfigured, secretLink } from '../../platform/mail/app-mail.ts';
import { sendMail } from '../../platform/mail/mailer.ts';

/** The web page an invitation link opens: it asks the person to sign in (or sign up) and accepts. */
export const INVITATION_PAGE = '/invitation';

/**
 * E-mails the invitation's link to the address. The inviter sees the link itself only when no mail
 * server is configured (someone has to pass it on); when the server refused the mail they see that it
 * did not go out, and may send the invitation again.
 */
export async function sendInvitation(
  ctx: AppContext,
  o: { to: string; org: string; by: AuthUser },
  secret: string,
): Promise<{ invite_email_sent: boolean; invite_link?: string }> {
  const link = secretLink(ctx.config, INVITATION_PAGE, secret);
  if (!mailConfigured(ctx.config)) return { invite_email_sent: false, invite_link: link };
  const inviter = [o.by.first_name, o.by.last_name].filter((s) => s?.trim()).join(' ') || o.by.email;
  const failed = await sendMail(accountMailSettings(ctx.config), {
    to: o.to,
    subject: `You are invited to ${o.org} on Command Centre`,
    text: `${inviter} invited you to join the organization "${o.org}" on Command Centre.\n\nOpen this link to accept (you will sign in, or sign up first):\n${link}\n\nThe link works once. If you did not expect this invitation, ignore this message.\n`,
  });
  return { invite_email_sent: failed === null };
}
