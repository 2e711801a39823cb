import { createHash, randomBytes } from 'node:crypto';
import type { AppConfig } from '../../config.ts';
import type { MailSettings } from './mailer.ts';

// Account e-mails (invitations, verification and e-mail change links) go out through the same SMTP
// settings as the executive brief (SMTP_URL, SMTP_FROM, PUBLIC_URL): one mail server per deployment.

export const accountMailSettings = (config: AppConfig): MailSettings => ({
  smtpUrl: config.briefs.smtpUrl,
  from: config.briefs.smtpFrom,
});

export const mailConfigured = (config: AppConfig): boolean => Boolean(config.briefs.smtpUrl);

/**
 * A link to a page of the web app carrying a one-time secret. The secret travels in the fragment, so it
 * never reaches a server's access log, a proxy or a Referer header; the page reads it and posts it.
 */
export const secretLink = (config: AppConfig, page: string, secret: string): string =>
  `${config.briefs.publicUrl}${page}#token=${encodeURIComponent(secret)}`;

/** A fresh one-time secret and the hash that is stored instead of it. */
export function newOneTimeSecret(): { secret: string; hash: string } {
  const secret = randomBytes(32).toString('base64url');
  return { secret, hash: hashOneTimeSecret(secret) };
}

export const hashOneTimeSecret = (secret: string): string =>
  createHash('sha256').update(secret).digest('hex');
