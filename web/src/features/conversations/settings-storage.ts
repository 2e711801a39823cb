import type { ChatSettings } from './use-conversation-log';

/** The person's defaults for new conversations (this browser; see docs/decisions/ 2026-11-24). */
const defaultsKey = (userId: string) => `cc:chat-settings:${userId}`;
/** One conversation's choices, kept across reloads. */
const conversationKey = (userId: string, conversationId: string) =>
  `cc:chat-settings:${userId}:${conversationId}`;

function read(key: string): Partial<ChatSettings> | null {
  try {
    const raw = localStorage.getItem(key);
    return raw ? (JSON.parse(raw) as Partial<ChatSettings>) : null;
  } catch {
    return null;
  }
}

/** Saved values over `base`, each only when it is valid. */
function merge(base: Required<ChatSettings>, saved: Partial<ChatSettings> | null): Required<ChatSettings> {
  if (!saved || typeof saved !== 'object') return base;
  const out = { ...base };
  for (const k of ['use_memory', 'use_internet', 'use_internal_search'] as const) {
    if (typeof saved[k] === 'boolean') out[k] = saved[k];
  }
  if (typeof saved.model === 'string' && saved.model) out.model = saved.model;
  const n = saved.context_messages;
  if (Number.isInteger(n) && (n as number) >= 0 && (n as number) <= 10) out.context_messages = n as number;
  return out;
}

/**
 * The More Settings of a conversation: its own saved choices, else the person's defaults (the choices
 * they made last, in any conversation), else `defaults`.
 */
export function loadChatSettings(
  defaults: Required<ChatSettings>,
  userId: string,
  conversationId: string,
): Required<ChatSettings> {
  const own = read(conversationKey(userId, conversationId));
  if (own) return merge(defaults, own);
  return merge(defaults, read(defaultsKey(userId)));
}

/** Keeps the choices for this conversation and as the person's defaults for new ones. */
export function saveChatSettings(
  settings: Required<ChatSettings>,
  userId: string,
  conversationId: string,
): void {
  try {
    const json = JSON.stringify(settings);
    localStorage.setItem(conversationKey(userId, conversationId), json);
    localStorage.setItem(defaultsKey(userId), json);
  } catch {
    // storage unavailable: the settings last for this page only
  }
}
