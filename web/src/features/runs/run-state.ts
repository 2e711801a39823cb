import {
  APPROVAL_GRANTED_EVENT,
  APPROVAL_REJECTED_EVENT,
  APPROVAL_REQUIRED_EVENT,
  CALL_INTERRUPTED_EVENT,
  CALL_INTERRUPTION_ANSWERED_EVENT,
  isTerminalRunEvent,
  runOutcomeOf,
  type TRunEvent,
  type TToolCallView,
} from '@cc/contract';
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
      // A tool call waits for approval: the run waits, with no question to answer (see pendingApprovalOf).
      case APPROVAL_REQUIRED_EVENT:
        view = { ...view, status: kind === 'crew' ? 'awaiting_human_input' : 'paused', prompt: null };
        break;
      // An approved call was cut: the run waits for "did it go through?" (see interruptedCallOf).
      case CALL_INTERRUPTED_EVENT:
        view = { ...view, status: kind === 'crew' ? 'awaiting_human_input' : 'paused', prompt: null };
        break;
      case APPROVAL_GRANTED_EVENT:
      case APPROVAL_REJECTED_EVENT:
      case CALL_INTERRUPTION_ANSWERED_EVENT:
        view = { ...view, status: 'running' };
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

/** A tool call the run waits on, as its `approval_required` event shows it. */
export interface PendingApproval extends TToolCallView {
  approvalId: string;
  eventId: string;
  /** The call's arguments (what Edit changes). */
  arguments: Record<string, unknown>;
}

/**
 * The call the run waits on: the latest `approval_required` event no later decision event names, while
 * the run is active. Events arrive live over the run's stream, so this follows decisions made anywhere.
 */
export function pendingApprovalOf(events: readonly TRunEvent[], status: RunStatus): PendingApproval | null {
  if (!isActiveStatus(status)) return null;
  const decided = new Set(
    events
      .filter((e) => e.type === APPROVAL_GRANTED_EVENT || e.type === APPROVAL_REJECTED_EVENT)
      .map((e) => String(e.details?.approval_id ?? '')),
  );
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i];
    if (e.type !== APPROVAL_REQUIRED_EVENT) continue;
    const d = e.details ?? {};
    const approvalId = typeof d.approval_id === 'string' ? d.approval_id : null;
    if (!approvalId || decided.has(approvalId)) return null;
    return {
      approvalId,
      eventId: e.id,
      tool: String(d.tool ?? ''),
      method: String(d.method ?? ''),
      url: String(d.url ?? ''),
      headers: isRecord(d.headers) ? (d.headers as Record<string, string>) : {},
      body: isRecord(d.body) ? d.body : null,
      arguments: isRecord(d.arguments) ? d.arguments : isRecord(d.body) ? d.body : {},
    };
  }
  return null;
}

/** An approved call that was cut, as its `call_interrupted` event shows it: the run asks what became of it. */
export interface InterruptedCall extends TToolCallView {
  approvalId: string;
  question: string;
}

/** The interrupted call the run asks about: the latest `call_interrupted` event not answered since. */
export function interruptedCallOf(events: readonly TRunEvent[], status: RunStatus): InterruptedCall | null {
  if (!isActiveStatus(status)) return null;
  const answered = new Set(
    events
      .filter((e) => e.type === CALL_INTERRUPTION_ANSWERED_EVENT)
      .map((e) => String(e.details?.approval_id ?? '')),
  );
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i];
    if (e.type !== CALL_INTERRUPTED_EVENT) continue;
    const d = e.details ?? {};
    const approvalId = typeof d.approval_id === 'string' ? d.approval_id : null;
    if (!approvalId || answered.has(approvalId)) return null;
    return {
      approvalId,
      question: String(d.question ?? e.summary),
      tool: String(d.tool ?? ''),
      method: String(d.method ?? ''),
      url: String(d.url ?? ''),
      headers: isRecord(d.headers) ? (d.headers as Record<string, string>) : {},
      body: isRecord(d.body) ? d.body : null,
    };
  }
  return null;
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  Boolean(v) && typeof v === 'object' && !Array.isArray(v);

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
