import type { ChatSettings } from './use-conversation-log';

const KEY = 'cc:chat-settings';

/** The chat settings the user chose last time (this browser), merged over the defaults. */
export function loadChatSettings(defaults: Required<ChatSettings>): Required<ChatSettings> {
  try {
    const raw = localStorage.getItem(KEY);
    if (!raw) return defaults;
    const saved = JSON.parse(raw) as Partial<ChatSettings>;
    const out = { ...defaults };
    for (const k of ['use_memory', 'use_internet', 'use_internal_search'] as const) {
      if (typeof saved[k] === 'boolean') out[k] = saved[k];
    }
    if (typeof saved.model === 'string' && saved.model) out.model = saved.model;
    if (
      Number.isInteger(saved.context_messages) &&
      (saved.context_messages as number) >= 0 &&
      (saved.context_messages as number) <= 10
    ) {
      out.context_messages = saved.context_messages as number;
    }
    return out;
  } catch {
    return defaults;
  }
}

export function saveChatSettings(settings: Required<ChatSettings>): void {
  try {
    localStorage.setItem(KEY, JSON.stringify(settings));
  } catch {
    // storage unavailable: the settings last for this page only
  }
}
