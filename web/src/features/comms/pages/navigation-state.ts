import { fetchAssignableUsers } from '../../../lib/queries/users';
import { createThread, putSuggestion } from '../api';

/** What other screens may pass to /app/comms as navigation state (spec: Comms Center). */
export interface CommsNavigationState {
  activateThreadId?: string;
  recipientName?: string;
  initialAiSuggestionText?: string;
  communicationContext?: string;
}

const norm = (s: string) => s.trim().toLowerCase().replace(/\s+/g, ' ');

/**
 * Opens (or creates) the matching thread and attaches the AI suggestion that came with it; resolves to
 * the thread id. A recipient is matched by full name, else by first name, among the app-user contacts.
 */
export async function openFromNavigation(state: CommsNavigationState): Promise<string> {
  let threadId = state.activateThreadId ?? null;
  if (!threadId && state.recipientName) {
    const wanted = norm(state.recipientName);
    const contacts = await fetchAssignableUsers().catch(() => []);
    const match =
      contacts.find((c) => norm(c.name) === wanted) ??
      contacts.find((c) => norm(c.name).split(' ')[0] === wanted.split(' ')[0]);
    if (!match) throw new Error(`${state.recipientName} is not among your app-user contacts.`);
    threadId = (await createThread([match.id])).id;
  }
  if (!threadId) throw new Error('No conversation to open.');
  const text = state.initialAiSuggestionText?.trim();
  if (text) await putSuggestion(threadId, text, state.communicationContext?.trim() || null);
  return threadId;
}
