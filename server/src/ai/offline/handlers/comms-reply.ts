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

/**
 * A short reply in the recipient's voice to the last message from the other person, grounded in the
 * thread and the recipient's contact record (the last interaction they noted). Deterministic, plain
 * text: it is a draft the person edits and sends, so it carries no engine notice.
 */
export const commsReplyHandler: OfflineHandler = ({ data }) => {
  const d = (data ?? {}) as Partial<CommsReplyData>;
  const messages = Array.isArray(d.messages) ? d.messages : [];
  const incoming = [...messages].reverse().find((m) => !m.own);
  const sender = firstName(d.sender_name || incoming?.sender_name || 'there');
  const text = incoming?.text ?? '';
  const parts: string[] = [];

  if (has(text, ['thank', 'thanks', 'appreciate'])) {
    parts.push(`You're welcome, ${sender}!`);
  } else if (has(text, ['meet', 'call', 'schedule', 'calendar', 'sync', 'catch up'])) {
    parts.push(`Happy to meet, ${sender}. Would tomorrow at 10:00 work for you?`);
  } else if (has(text, ['update', 'status', 'report', 'numbers', 'progress', 'forecast'])) {
    parts.push(`Thanks for the update, ${sender}. Could you send me the key numbers before our next review?`);
  } else if (has(text, ['urgent', 'asap', 'blocker', 'blocked', 'issue', 'problem', 'risk'])) {
    parts.push(`Thanks for flagging this, ${sender}. Let's take it first thing — what do you need from me?`);
  } else if (text.trim().endsWith('?')) {
    parts.push(`Good question, ${sender}. Let me check and get back to you today.`);
  } else {
    parts.push(`Thanks, ${sender} — noted. I'll follow up shortly.`);
  }

  const last = d.contact?.last_interaction;
  if (last?.summary) parts.push(`This also ties in with "${last.summary}" from ${last.date}.`);
  return parts.join(' ');
};
