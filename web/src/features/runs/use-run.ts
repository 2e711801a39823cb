import type { TRunEvent } from '@cc/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import { useEventStream } from '../../lib/event-stream';
import { type RunKind, runEventsPath, useRunTimeline } from './api';
import {
  asRunEvent,
  foldRun,
  isActiveStatus,
  isTerminalMessage,
  mergeEvents,
  type RunView,
} from './run-state';
import type { RunTarget } from './session-store';

export type { RunTarget } from './session-store';

/** Events received live, kept in the query cache so every view of the run sees them. */
const liveKey = (kind: RunKind, id: string) => ['runs', kind, id, 'live'] as const;

/**
 * A run's state: its stored timeline plus the events streamed since (de-duplicated by id), folded
 * into status, prompt and result. `answered` hides a prompt already answered.
 */
export function useRunView(target: RunTarget | null, answered: string | null = null) {
  const kind = target?.kind ?? 'crew';
  const id = target?.id ?? null;
  const timeline = useRunTimeline(kind, id);
  const live = useQuery({
    queryKey: liveKey(kind, id ?? ''),
    queryFn: () => [] as TRunEvent[],
    enabled: false,
    initialData: [] as TRunEvent[],
    gcTime: 10 * 60_000,
  });

  const events = useMemo(
    () => mergeEvents(timeline.data?.timeline ?? [], live.data ?? []),
    [timeline.data, live.data],
  );

  const row: RunView | null = timeline.data
    ? {
        status: timeline.data.status,
        prompt: timeline.data.human_prompt,
        promptEventId: null,
        result: timeline.data.result,
      }
    : null;
  let view: RunView;
  if (row && isActiveStatus(row.status)) {
    // The events say how the active run moved on since the row was read.
    view = events.length ? foldRun(kind, null, events) : row;
  } else {
    view = foldRun(kind, row, events);
  }
  const waitingFor = view.promptEventId ?? (view.prompt ? 'row' : null);
  const previousOutput = useMemo(
    () => (view.prompt ? outputBefore(events, view.promptEventId) : null),
    [events, view.prompt, view.promptEventId],
  );

  return {
    view,
    events,
    loading: Boolean(id) && timeline.isPending,
    timelineSettled: !id || !timeline.isPending,
    promptKey: waitingFor,
    /** What the step before the question produced (a drafted plan to approve, say). */
    previousOutput,
    showPrompt: view.prompt !== null && isActiveStatus(view.status) && answered !== waitingFor,
  };
}

/** The output of the last step finished before the event `beforeId` (or of the last one at all). */
export function outputBefore(events: readonly TRunEvent[], beforeId: string | null): string | null {
  let out: string | null = null;
  for (const e of events) {
    if (beforeId !== null && e.id === beforeId) break;
    if (e.type !== 'task_output' && e.type !== 'step_output') continue;
    const o = e.details?.output;
    if (typeof o === 'string' && o.trim()) out = o;
  }
  return out;
}

/** Follows the run's SSE stream (one follower per run on a screen) until a terminal event. */
export function useRunFollower(target: RunTarget | null, active: boolean, ready: boolean) {
  const queryClient = useQueryClient();
  const kind = target?.kind ?? 'crew';
  const id = target?.id ?? null;
  const onMessage = useCallback(
    (msg: { data: unknown }) => {
      const e = asRunEvent(msg.data);
      if (!e || !id) return;
      queryClient.setQueryData<TRunEvent[]>(liveKey(kind, id), (prev = []) =>
        prev.some((p) => p.id === e.id) ? prev : [...prev, e],
      );
    },
    [queryClient, kind, id],
  );
  return useEventStream(id ? runEventsPath(kind, id) : null, {
    onMessage,
    isTerminal: (m) => isTerminalMessage(m.data),
    enabled: Boolean(id) && active && ready,
  });
}
