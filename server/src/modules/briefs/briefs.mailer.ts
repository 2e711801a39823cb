import type { TBrief, TCitation } from '@cc/contract';
import nodemailer from 'nodemailer';

/** Time an SMTP server gets to answer each step: a dead server marks the brief, it never holds it up long. */
const SMTP_TIMEOUT_MS = 10_000;

const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );

const link = (base: string, c: TCitation) => `${base}${c.url}`;

/** The brief as an e-mail: plain text and HTML, every citation a link into the app. */
export function briefEmail(brief: TBrief, base: string): { subject: string; text: string; html: string } {
  const date = brief.period_end.slice(0, 10);
  const page = `${base}/app/brief?id=${encodeURIComponent(brief.id)}`;
  const text: string[] = [`Your brief of ${date}`, '', brief.summary, ''];
  const html: string[] = [
    `<h1>Your brief of ${escapeHtml(date)}</h1>`,
    `<p>${escapeHtml(brief.summary).replace(/\n/g, '<br>')}</p>`,
  ];
  const items = (title: string, list: TBrief['actions']) => {
    text.push(title);
    html.push(`<h2>${escapeHtml(title)}</h2><ul>`);
    for (const i of list) {
      text.push(`- ${i.text}`, ...i.citations.map((c) => `  ${c.title}: ${link(base, c)}`));
      const cites = i.citations
        .map((c) => `<a href="${escapeHtml(link(base, c))}">${escapeHtml(c.title)}</a>`)
        .join(', ');
      html.push(`<li>${escapeHtml(i.text)}${cites ? ` (${cites})` : ''}</li>`);
    }
    text.push('');
    html.push('</ul>');
  };
  if (brief.actions.length) items('Top actions', brief.actions);
  for (const s of brief.sections) items(s.title, s.items);
  text.push(`Open the brief: ${page}`);
  html.push(`<p><a href="${escapeHtml(page)}">Open the brief</a></p>`);
  return { subject: `Your brief of ${date}`, text: text.join('\n'), html: html.join('\n') };
}

/** Sends the brief; resolves with null when sent, or the reason it was not. Never rejects. */
export async function sendBriefEmail(
  o: { smtpUrl: string; from: string; to: string; base: string },
  brief: TBrief,
): Promise<string | null> {
  try {
    const transport = nodemailer.createTransport({
      url: o.smtpUrl,
      connectionTimeout: SMTP_TIMEOUT_MS,
      greetingTimeout: SMTP_TIMEOUT_MS,
      socketTimeout: SMTP_TIMEOUT_MS,
    });
    try {
      const mail = briefEmail(brief, o.base);
      await transport.sendMail({ from: o.from, to: o.to, ...mail });
      return null;
    } finally {
      transport.close();
    }
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}
