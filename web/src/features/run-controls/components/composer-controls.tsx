import { useQueryClient } from '@tanstack/react-query';
import { ChevronDown, Square, X } from 'lucide-react';
import { useState } from 'react';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { notify } from '../../../lib/toast';
import { cn } from '../../../lib/utils';
import { type RunKind, runKeys, useContinueRun, useStopRun } from '../api';
import { HumanPrompt } from './human-prompt';
import { isActiveStatus } from '../run-state';
import { RunTimeline } from './run-timeline';
import { useRunSession } from '../session-store';
import { useRunView } from '../use-run';

const START_FAILED: Record<RunKind, string> = {
  crew: 'Failed to start the crew. Please check the console for details.',
  flow: 'Failed to start the flow. Please check the console for details.',
};

/**
 * The composer half of the run controls: the "Crew running..." banner, the run's question for a
 * person, the live timeline and Stop. The header half follows the stream; this one reads the cache.
 */
export function ComposerRunControls({ conversationId }: { conversationId: string }) {
  const queryClient = useQueryClient();
  const [session, patch] = useRunSession(conversationId);
  const { target } = session;
  const run = useRunView(target, session.answered);
  const stop = useStopRun();
  const cont = useContinueRun();
  const [timelineOpen, setTimelineOpen] = useState(true);

  if (!target && !session.startError) return null;
  const status = target ? run.view.status : null;
  const active = status !== null && isActiveStatus(status);
  const working = status === 'running' || status === 'pending' || status === 'started';
  const noun = target?.kind === 'flow' ? 'Flow' : 'Crew';

  const onStop = () => {
    if (!target) return;
    stop.mutate(target, {
      onSettled: () => queryClient.invalidateQueries({ queryKey: runKeys.timeline(target.kind, target.id) }),
      onError: (err) => notify.error('Failed to stop the run', err.message),
    });
  };

  const onAnswer = (answer: string) => {
    if (!target) return;
    const answering = run.promptKey;
    cont.mutate(
      { kind: target.kind, id: target.id, userInput: answer },
      {
        onSuccess: () => patch({ answered: answering }),
        onError: (err) => notify.error('Failed to send your answer', err.message),
      },
    );
  };

  return (
    <section
      aria-label="Crew and flow run"
      className="flex flex-col gap-3 rounded-xl border border-border bg-card/60 p-3 sm:p-4"
    >
      {session.startError ? <Alert>{session.startLimit ?? START_FAILED[session.startError]}</Alert> : null}
      {target ? (
        <>
          <div className="flex flex-wrap items-center gap-2">
            <span className="min-w-0 flex-1 truncate text-sm font-medium">{target.name}</span>
            {active ? (
              <Button variant="destructive" size="sm" onClick={onStop} disabled={stop.isPending}>
                {stop.isPending ? <Spinner /> : <Square aria-hidden="true" />}
                Stop
              </Button>
            ) : (
              <Button
                variant="ghost"
                size="icon-sm"
                aria-label="Close the run"
                onClick={() => patch({ target: null, startError: null })}
              >
                <X aria-hidden="true" />
              </Button>
            )}
          </div>
          {working ? (
            <div
              role="status"
              className="flex items-center gap-2 rounded-md border border-[#1e3a8a] bg-[#0f1d3d] px-3 py-2 text-sm text-info-text"
            >
              <Spinner />
              {target.kind === 'flow' ? 'Flow running...' : 'Crew running...'}
            </div>
          ) : null}
          {run.showPrompt && run.view.prompt ? (
            <HumanPrompt
              key={run.promptKey ?? 'prompt'}
              prompt={run.view.prompt}
              pending={cont.isPending}
              onAnswer={onAnswer}
            />
          ) : null}
          {status === 'completed' ? (
            <p className="text-sm text-success-text">{noun} completed. The result is in the conversation.</p>
          ) : status === 'failed' ? (
            <p className="text-sm text-danger-text">{noun} failed.</p>
          ) : null}
          <div className="flex flex-col gap-2">
            <Button
              variant="ghost"
              size="sm"
              className="self-start"
              aria-expanded={timelineOpen}
              onClick={() => setTimelineOpen((o) => !o)}
            >
              <ChevronDown
                aria-hidden="true"
                className={cn('transition-transform', timelineOpen && 'rotate-180')}
              />
              Timeline ({run.events.length})
            </Button>
            {timelineOpen ? (
              run.loading ? (
                <Spinner label="Loading the timeline" />
              ) : (
                <RunTimeline events={run.events} label={`${target.name} timeline`} />
              )
            ) : null}
          </div>
        </>
      ) : (
        <div className="flex justify-end">
          <Button variant="ghost" size="sm" onClick={() => patch({ startError: null })}>
            Dismiss
          </Button>
        </div>
      )}
    </section>
  );
}
