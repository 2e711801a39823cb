import { isTerminalRunEvent, runOutcomeOf, type TRunEvent } from '@cc/contract';
import type { RunKind } from './api';

/** Crew statuses and flow statuses (spec section 4) in one type. */
export type RunStatus =
  | 'pending'
  | 'started'
  | 'running'
  | 'awaiting_human_input'
  | 'paused'
  | 'completed'
  | 'failed';

export interface RunView {
  status: RunStatus;
  /** The question waiting for an answer (awaiting_human_input / paused). */
  prompt: string | null;
  /** The id of the event that asked it (an answer is given to that one prompt). */
  promptEventId: string | null;
  result: string | null;
}

export const isActiveStatus = (s: RunStatus) => s !== 'completed' && s !== 'failed';
export const isWaitingStatus = (s: RunStatus) => s === 'awaiting_human_input' || s === 'paused';

const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v : null);

/** Events in id order without duplicates (the stream replays what the timeline already holds). */
export function mergeEvents(a: readonly TRunEvent[], b: readonly TRunEvent[]): TRunEvent[] {
  const byId = new Map<string, TRunEvent>();
  for (const e of a) byId.set(e.id, e);
  for (const e of b) byId.set(e.id, e);
  return [...byId.values()].sort((x, y) => Number(x.id) - Number(y.id) || x.id.localeCompare(y.id));
}

/**
 * The run's state after its events (spec section 4): a human_prompt (crew) or wait_for_human (flow)
 * waits for an answer with the latest prompt; the answer (human_input) runs again; a result event
 * carries the result; terminal, crew_end or crew_error end it, failed when the event is crew_error or
 * its summary contains "fail". `server` is the status the run row had when loaded.
 */
export function foldRun(kind: RunKind, server: RunView | null, events: readonly TRunEvent[]): RunView {
  let view: RunView = server ?? { status: 'pending', prompt: null, promptEventId: null, result: null };
  for (const e of events) {
    const d = e.details ?? {};
    if (isTerminalRunEvent(e.type)) {
      view = {
        ...view,
        status: runOutcomeOf(e.type, e.summary),
        prompt: null,
        promptEventId: null,
        result: text(d.result) ?? view.result,
      };
      continue;
    }
    if (!isActiveStatus(view.status)) continue;
    switch (e.type) {
      case 'human_prompt':
      case 'wait_for_human':
        view = {
          ...view,
          status: kind === 'crew' ? 'awaiting_human_input' : 'paused',
          prompt: text(d.prompt) ?? e.summary,
          promptEventId: e.id,
        };
        break;
      case 'human_input':
        view = { ...view, status: 'running', prompt: null, promptEventId: null };
        break;
      case 'result':
        view = { ...view, result: text(d.result) ?? e.summary };
        break;
      default:
        if (!isWaitingStatus(view.status)) view = { ...view, status: 'running' };
    }
  }
  // A finished run row wins over an event list that was cut short.
  if (server && !isActiveStatus(server.status)) return { ...view, status: server.status, prompt: null };
  return view;
}

export function isTerminalMessage(data: unknown): boolean {
  return Boolean(
    data && typeof data === 'object' && isTerminalRunEvent(String((data as { type?: unknown }).type)),
  );
}

export function asRunEvent(data: unknown): TRunEvent | null {
  if (!data || typeof data !== 'object') return null;
  const e = data as Partial<TRunEvent>;
  if (typeof e.id !== 'string' && typeof e.id !== 'number') return null;
  if (typeof e.type !== 'string') return null;
  return {
    id: String(e.id),
    run_id: String(e.run_id ?? ''),
    type: e.type,
    summary: typeof e.summary === 'string' ? e.summary : '',
    details: e.details && typeof e.details === 'object' ? e.details : null,
    ts: typeof e.ts === 'string' ? e.ts : new Date().toISOString(),
    thread_id: e.thread_id ?? null,
  };
}

const CREW_LABELS: Record<RunStatus, string> = {
  pending: 'Pending',
  started: 'Started',
  running: 'Running',
  awaiting_human_input: 'Awaiting input',
  paused: 'Paused',
  completed: 'Completed',
  failed: 'Failed',
};

export function statusLabel(status: RunStatus): string {
  return CREW_LABELS[status];
}
