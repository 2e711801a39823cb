import { useCallback, useSyncExternalStore } from 'react';
import type { RunKind } from './api';
import type { AskingFor } from './components/run-picker';

export interface RunTarget {
  kind: RunKind;
  id: string;
  name: string;
}

/**
 * What the conversation's two control placements (header: badge and picker; composer: banner,
 * prompt, timeline, Stop) share: the run being followed and the picker's state, per conversation.
 */
export interface RunSession {
  target: RunTarget | null;
  pickerOpen: boolean;
  asking: AskingFor | null;
  startError: RunKind | null;
  /** The server's reason when a start was refused by its rate limit (429), shown instead of the generic text. */
  startLimit?: string | null;
  /** The prompt (event id) already answered, hidden before the server's human_input arrives. */
  answered: string | null;
}

const EMPTY: RunSession = { target: null, pickerOpen: false, asking: null, startError: null, answered: null };
const sessions = new Map<string, RunSession>();
const listeners = new Set<() => void>();

const subscribe = (fn: () => void) => {
  listeners.add(fn);
  return () => {
    listeners.delete(fn);
  };
};

export function patchRunSession(conversationId: string, patch: Partial<RunSession>): void {
  sessions.set(conversationId, { ...(sessions.get(conversationId) ?? EMPTY), ...patch });
  for (const fn of listeners) fn();
}

export function getRunSession(conversationId: string): RunSession {
  return sessions.get(conversationId) ?? EMPTY;
}

/** Forgets every session (tests). */
export function resetRunSessions(): void {
  sessions.clear();
  for (const fn of listeners) fn();
}

export function useRunSession(conversationId: string) {
  const session = useSyncExternalStore(
    subscribe,
    () => getRunSession(conversationId),
    () => EMPTY,
  );
  const patch = useCallback((p: Partial<RunSession>) => patchRunSession(conversationId, p), [conversationId]);
  return [session, patch] as const;
}
