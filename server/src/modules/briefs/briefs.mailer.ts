import { dayText, type TBrief, type TCitation } from '@cc/contract';
import { escapeHtml, sendMail } from '../../platform/mail/mailer.ts';

const link = (base: string, c: TCitation) => `${base}${c.url}`;

/** The brief as an e-mail: plain text and HTML, every citation a link into the app. */
export function briefEmail(brief: TBrief, base: string): { subject: string; text: string; html: string } {
  // The day as the app and the brief's own text write it ("15 Jun 2026").
  const date = dayText(brief.period_end);
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
  return sendMail({ smtpUrl: o.smtpUrl, from: o.from }, { to: o.to, ...briefEmail(brief, o.base) });
}
