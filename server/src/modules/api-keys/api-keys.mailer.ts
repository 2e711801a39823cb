import type { TApiKey } from '@cc/contract';
import type { AppContext } from '../../platform/context.ts';
import { sendMail } from '../../platform/mail/mailer.ts';

/**
 * Tells the owner a key was made for their account, so a key minted by someone else is noticed. Never
 * the secret. Sent through the SMTP settings the brief uses; without them nothing is sent (the key is
 * still made). Resolves with why it was not sent, or null.
 */
export function sendKeyCreatedEmail(ctx: AppContext, to: string, key: TApiKey): Promise<string | null> {
  const { smtpUrl, smtpFrom, publicUrl } = ctx.config.briefs;
  const text = [
    `A personal API key was created for your Command Centre account (${to}).`,
    '',
    `Name: ${key.name}`,
    `Starts with: ${key.prefix}`,
    `Scopes: ${key.scopes.join(', ')}`,
    `Created: ${key.created_at}`,
    `Expires: ${key.expires_at ?? 'never'}`,
    '',
    'If this was not you, revoke it and change your password on your Profile page:',
    `${publicUrl}/app/profile`,
  ].join('\n');
  return sendMail(
    { smtpUrl, from: smtpFrom },
    { to, subject: 'A new API key was created for your account', text },
  );
}
