import nodemailer from 'nodemailer';

/** Time an SMTP server gets to answer each step: a dead server marks the mail unsent, it never holds a request long. */
const SMTP_TIMEOUT_MS = 10_000;

export interface MailSettings {
  /** smtp://user:pass@host:587; unset: nothing is e-mailed. */
  smtpUrl?: string;
  from: string;
}

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

/**
 * The one way the server sends e-mail (briefs, invitations, verification links, security notices).
 * Resolves with null when sent, or the reason it was not (no SMTP configured, the server refused, …).
 * Never rejects: a mail that cannot go out must not fail the request that caused it.
 */
export async function sendMail(settings: MailSettings, mail: OutgoingMail): Promise<string | null> {
  if (!settings.smtpUrl) return 'no SMTP server is configured';
  try {
    const transport = nodemailer.createTransport({
      url: settings.smtpUrl,
      connectionTimeout: SMTP_TIMEOUT_MS,
      greetingTimeout: SMTP_TIMEOUT_MS,
      socketTimeout: SMTP_TIMEOUT_MS,
    });
    try {
      await transport.sendMail({ from: settings.from, ...mail });
      return null;
    } finally {
      transport.close();
    }
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

/** HTML-escapes text placed in a mail body. */
export const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );
