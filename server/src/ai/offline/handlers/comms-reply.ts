import { clip, listOf } from '../prose.ts';
import type { OfflineHandler } from '../types.ts';

/** What the comms module passes in `providerOptions.offline.data` (and in the prompt for real models). */
export interface CommsReplyData {
  recipient_name: string;
  sender_name: string;
  /** The thread's last messages, oldest first; `own` marks the recipient's. */
  messages: { sender_name: string; text: string; own: boolean }[];
  /** The recipient's contact record for the sender, when they keep one. */
  contact: {
    name: string;
    role: string | null;
    notes: string | null;
    last_interaction: { date: string; summary: string } | null;
  } | null;
}

const firstName = (name: string) => name.trim().split(/\s+/)[0] || name;

const has = (text: string, words: string[]) => words.some((w) => new RegExp(`\\b${w}`, 'i').test(text));

/** "me"/"my" of the sender become "you"/"your" in the reply, and the other way round. */
const SWAP: Record<string, string> = {
  me: 'you',
  my: 'your',
  your: 'my',
  you: 'me',
  mine: 'yours',
  yours: 'mine',
};
const swapPerson = (text: string) =>
  text.replace(/\b(me|my|your|you|mine|yours)\b/gi, (w) => SWAP[w.toLowerCase()]);

const sentencesOf = (text: string) =>
  text
    .replace(/\s+/g, ' ')
    .split(/(?<=[.!?])\s+/)
    .map((s) => s.trim())
    .filter(Boolean);

/** The figures a message gave ("€1.2M", "15%", "12 new logos"), quoted back to show it read them. */
function figuresOf(text: string): string[] {
  const out: string[] = [];
  const re = /(?<![\p{L}\d])([€$£]?\d[\d.,]*(?:\s?(?:%|percent\b|bn\b|[kKmMbB]\b))?)((?:\s[a-z]{3,}){0,2})/gu;
  for (const m of text.matchAll(re)) {
    const figure = m[1].replace(/[.,]+$/, '');
    const suffixed = /[%kKmMbBn]$|percent$/.test(figure) || /^[€$£]/.test(figure);
    // "42 deals and ARR" → "42 deals": the unit stops at the first filler word.
    const words = suffixed ? [] : m[2].trim().split(' ').filter(Boolean);
    const stop = words.findIndex((w) => FILLER.has(w));
    const unit = (stop < 0 ? words : words.slice(0, stop)).join(' ');
    if (/^\d{4}$/.test(figure) && !unit) continue; // a year, not a figure
    out.push(unit ? `${figure} ${unit}` : figure);
  }
  return [...new Set(out)].slice(0, 3);
}
const FILLER = new Set(
  'and or the for from with than this that are was were into onto over per but in on at to of by is we'.split(
    ' ',
  ),
);

/** "Can you send me the deck?" → "send you the deck" (what the sender asks the recipient to do). */
const ACTIONS =
  'send|share|review|check|look at|look into|approve|sign|confirm|prepare|join|forward|update|draft';
const REQUEST = new RegExp(`\\b(?:can|could|would|will) you(?: please)? ((?:${ACTIONS})\\b[^?]*)\\?`, 'i');
const IMPERATIVE = new RegExp(`(?:^|[.!]\\s+)(?:please )?((?:${ACTIONS})\\b[^.!?]*)`, 'i');
const MEETING =
  /\b(?:can|could|shall|should|let's|lets)(?: we)? (?:meet|schedule|set up|catch up|sync|talk|have a (?:call|meeting|chat)|jump on)|\b(?:are you|you) (?:free|available)|\bhave (?:time|a minute)/i;
const OPINION =
  /\b(do you (think|agree)|what do you think|thoughts|ok with|okay with|fine with|happy with)\b/i;
const TROUBLE = ['urgent', 'asap', 'blocker', 'blocked', 'issue', 'problem', 'risk', 'delay', 'slipp'];

/** A yes/no question asking for the recipient's call: "Do you agree we…", "Should we…", "OK to…". */
const DECISION =
  /^(?:do you (?:agree|think|want)|should (?:we|i)|shall (?:we|i)|can we|could we|are you (?:ok|okay|fine|happy)|is it (?:ok|okay|fine)|ok to|okay to|any objection|do we)\b/i;

/** "by Friday", "before the board meeting", "end of day": the deadline a message sets, as said. */
const DEADLINE =
  /\b(?:by|before|no later than|until)\s+((?:the\s+)?(?:end of (?:the )?(?:day|week|month)|eod|eow|tomorrow|tonight|today|monday|tuesday|wednesday|thursday|friday|saturday|sunday|\d{1,2}(?::\d{2})?\s?(?:am|pm)|\d{1,2}(?:st|nd|rd|th)?\s+[a-z]+|[a-z]+\s+\d{1,2}(?:st|nd|rd|th)?|(?:the|our|next)\s+[a-z]+\s+(?:meeting|review|call)))\b|\bdeadline is\s+([^.,;!?]+?)(?=\s+(?:for|to|on|and|so)\b|[.,;!?]|$)/i;

/** The deadline as a phrase to promise against: "by Friday", "before the board meeting". */
export function deadlineOf(text: string): string | null {
  const m = DEADLINE.exec(text);
  if (!m) return null;
  return m[1] ? m[0].trim().replace(/^(\S+)/, (w) => w.toLowerCase()) : `by ${m[2].trim()}`;
}

const COMMITTED = /I'll (get you|get that to you|do that|make sure it's done)/;

/**
 * What the recipient commits to for a request, by the deadline it set (else today), without
 * repeating the request: "send me the deck by Friday" → "I'll get you the deck by Friday."
 */
function commitment(request: string, deadline: string | null): string {
  const when = deadline ?? 'today';
  // The thing asked for, in the recipient's words ("me the board deck by Friday" → "the board deck").
  const thing = swapPerson(
    request
      .replace(/^\S+\s+(?:(?:me|us)\s+)?/i, '')
      .replace(deadline ?? /$^/, '')
      .replace(/\s+(?:please|today|asap)$/i, '')
      .trim(),
  );
  if (!/^(send|share|forward|prepare|draft|update)\b/i.test(request)) return `I'll do that ${when}.`;
  return thing ? `I'll get you ${clip(thing, 80)} ${when}.` : `I'll get that to you ${when}.`;
}

/**
 * The reply to the question the message asks: the meeting it proposes, the thing it asks for, or an
 * honest "I'll find out" that names what was asked. `named` when the reply already said the name.
 */
function answerQuestion(question: string, sender: string, named: boolean): string {
  const to = named ? '' : `, ${sender}`;
  if (MEETING.test(question)) return `Happy to meet${to}. Would tomorrow at 10:00 work for you?`;
  const req = REQUEST.exec(question);
  if (req) return `Sure${to} — ${commitment(req[1], deadlineOf(question))}`;
  // A yes/no call gets a decision the person can send or flip; an open question a firm time for the
  // answer. Neither repeats the question back.
  if (DECISION.test(question.trim()) || OPINION.test(question))
    return `Yes${to}, let's go ahead. If you see a reason not to, tell me by tomorrow and we'll decide together.`;
  return `I don't have the answer to hand${to}. I'll send it to you by tomorrow at noon.`;
}

/**
 * A short reply in the recipient's voice to the other person's latest messages, grounded in the
 * thread and the recipient's contact record. It answers what was asked (a meeting, a request, a
 * question), acknowledges the figures it was given instead of asking for them, and only mentions the
 * last noted interaction when it is about the same thing. Deterministic, plain text: it is a draft
 * the person edits and sends, so it carries no engine notice and no markdown.
 */
export const commsReplyHandler: OfflineHandler = ({ data }) => {
  const d = (data ?? {}) as Partial<CommsReplyData>;
  const messages = Array.isArray(d.messages) ? d.messages : [];
  // Everything the other person said since the recipient last wrote is what the reply answers.
  const lastOwn = messages.map((m) => m.own).lastIndexOf(true);
  const incoming = messages.slice(lastOwn + 1).filter((m) => !m.own);
  const sender = firstName(d.sender_name || incoming.at(-1)?.sender_name || 'there');
  const text = incoming.map((m) => m.text.trim()).join(' ');
  const sentences = sentencesOf(text);
  const question = sentences.filter((s) => s.endsWith('?')).at(-1) ?? null;
  // A date in a deadline ("by 12 December") is not a figure to thank for.
  const figures = figuresOf(
    sentences
      .filter((s) => !s.endsWith('?'))
      .join(' ')
      .replace(DEADLINE, ''),
  );
  const parts: string[] = [];

  if (has(text, ['thank', 'thanks', 'appreciate']) && !question) {
    parts.push(`You're welcome, ${sender}!`);
  } else if (figures.length > 0) {
    parts.push(`Thanks for the numbers, ${sender} — noted: ${listOf(figures)}.`);
  } else if (has(text, TROUBLE)) {
    parts.push(`Thanks for flagging this, ${sender}. Let's take it first thing.`);
  } else if (!question && MEETING.test(text)) {
    parts.push(`Happy to meet, ${sender}. Would tomorrow at 10:00 work for you?`);
  } else if (!question) {
    const imperative = IMPERATIVE.exec(text);
    if (imperative) parts.push(`Will do, ${sender} — ${commitment(imperative[1], deadlineOf(text))}`);
    else if (has(text, ['update', 'status', 'report', 'progress', 'forecast']))
      parts.push(`Thanks for the update, ${sender}. Could you send the key numbers before our next review?`);
    else {
      const due = deadlineOf(text);
      parts.push(
        due
          ? `Thanks, ${sender} — I'll make sure it's done ${due}.`
          : `Thanks, ${sender} — noted. I'll follow up shortly.`,
      );
    }
  }
  if (question) parts.push(answerQuestion(question, sender, parts.length > 0));
  const deadline = deadlineOf(text);
  const promised = parts.some((p) => COMMITTED.test(p));
  if (deadline && !promised) parts.push(`Noted: I'll make sure it's done ${deadline}.`);
  if (has(text, TROUBLE) && !question) parts.push('What do you need from me?');

  const last = d.contact?.last_interaction;
  if (last?.summary && sharesWord(last.summary, text))
    parts.push(`It follows on from what we discussed on ${last.date} (${clip(last.summary, 120)}).`);
  return parts.join(' ').replace(/\s+/g, ' ').trim();
};

/** True when two texts share a meaningful word (five letters or more), e.g. "budget". */
function sharesWord(a: string, b: string): boolean {
  const words = (t: string) => new Set(t.toLowerCase().match(/[\p{L}\p{N}]{5,}/gu) ?? []);
  const wa = words(a);
  return [...words(b)].some((w) => wa.has(w));
}
