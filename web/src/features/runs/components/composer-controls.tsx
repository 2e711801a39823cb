import { useQueryClient } from '@tanstack/react-query';
import { ChevronDown, ChevronUp, Square, X } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { notify } from '../../../lib/toast';
import { useMediaQuery } from '../../../lib/use-media-query';
import { cn } from '../../../lib/utils';
import { type RunKind, runKeys, useContinueRun, useStopRun } from '../api';
import { isActiveStatus, isWaitingStatus, statusLabel } from '../run-state';
import { useRunSession } from '../session-store';
import { useRunView } from '../use-run';
import { HumanPrompt } from './human-prompt';
import { RunApproval } from './run-approval';
import { RunTimeline } from './run-timeline';

const START_FAILED: Record<RunKind, string> = {
  crew: 'Failed to start the crew. Please check the console for details.',
  flow: 'Failed to start the flow. Please check the console for details.',
};

/**
 * The run panel: the "Crew running..." banner, the run's question for a person (with what it asks
 * about), the live timeline and Stop. On wide screens it is a side column next to the conversation
 * (the page's grid places `data-run-panel`); on small screens a one-line bar above the composer opens
 * it as a sheet, so the log and the composer keep their room while a run waits or after it ends.
 */
export function ComposerRunControls({
  conversationId,
  onRunEnded,
}: {
  conversationId: string;
  onRunEnded?: () => void;
}) {
  const queryClient = useQueryClient();
  const [session, patch] = useRunSession(conversationId);
  const { target } = session;
  const run = useRunView(target, session.answered);
  const stop = useStopRun();
  const cont = useContinueRun();
  const [timelineOpen, setTimelineOpen] = useState(true);
  const [sheetOpen, setSheetOpen] = useState(false);
  const status = target ? run.view.status : null;
  const active = status !== null && isActiveStatus(status);
  const sheetRef = useRef<HTMLDivElement>(null);
  // Wide screens show the whole panel as a side column; small ones a bar that opens it as a sheet.
  const wide = useMediaQuery('(min-width: 1024px)');

  // The sheet opened: focus moves into it (the answer box when a question waits); Escape closes it.
  useEffect(() => {
    if (!sheetOpen) return;
    const sheet = sheetRef.current;
    const first =
      sheet?.querySelector<HTMLElement>('textarea') ?? sheet?.querySelector<HTMLElement>('button');
    first?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') setSheetOpen(false);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [sheetOpen]);

  // The run ended while shown: the conversation goes to its result (the latest message).
  const wasActive = useRef(false);
  useEffect(() => {
    if (status === null) return;
    if (active) wasActive.current = true;
    else if (wasActive.current) {
      wasActive.current = false;
      onRunEnded?.();
    }
  }, [status, active, onRunEnded]);

  if (!target && !session.startError) return null;
  const working = status === 'running' || status === 'pending' || status === 'started';
  const waiting = status !== null && isWaitingStatus(status) && run.showPrompt;
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
        onSuccess: () => {
          patch({ answered: answering });
          setSheetOpen(false);
        },
        onError: (err) => notify.error('Failed to send your answer', err.message),
      },
    );
  };

  // On a phone a waiting run's question and the output it asks about stay in view above the composer,
  // without opening the sheet (issue 47 item 4); on wide screens they are in the side column.
  const question =
    run.showPrompt && run.view.prompt ? (
      <HumanPrompt
        key={run.promptKey ?? 'prompt'}
        prompt={run.view.prompt}
        previousOutput={run.previousOutput}
        pending={cont.isPending}
        onAnswer={onAnswer}
        compact={!wide}
      />
    ) : null;

  return (
    <section
      aria-label="Crew and flow run"
      data-run-panel=""
      // A question shown inline on a small screen: the page gives it the room (the offline banner steps aside).
      data-run-waiting={question && !wide ? '' : undefined}
      className={cn(
        'flex min-h-0 flex-col gap-2 rounded-xl border border-border bg-card/60 p-2 sm:p-3 lg:gap-3',
        // Wide screens: the side column, from the header to the composer, scrolling on its own.
        'lg:col-start-2 lg:row-[1/-1] lg:overflow-y-auto lg:p-4',
      )}
    >
      {/* Small screens: one line that says where the run is and opens the sheet. */}
      {target ? (
        <div className="flex items-center gap-2 lg:hidden">
          <span className="min-w-0 flex-1 truncate text-sm">
            <span className="font-medium">{target.name}</span>
            {status ? <span className="text-muted-foreground"> · {statusLabel(status)}</span> : null}
          </span>
          <Button
            size="sm"
            variant={waiting ? 'default' : 'outline'}
            aria-expanded={sheetOpen}
            aria-controls={`run-sheet-${conversationId}`}
            onClick={() => setSheetOpen((o) => !o)}
          >
            {sheetOpen ? <ChevronDown aria-hidden="true" /> : <ChevronUp aria-hidden="true" />}
            {sheetOpen ? 'Hide run' : 'Show run'}
          </Button>
        </div>
      ) : null}
      {wide ? null : question}
      {sheetOpen ? (
        <button
          type="button"
          aria-label="Close the run sheet"
          tabIndex={-1}
          className="fixed inset-0 z-30 bg-black/50 lg:hidden"
          onClick={() => setSheetOpen(false)}
        />
      ) : null}
      <div
        ref={sheetRef}
        id={`run-sheet-${conversationId}`}
        className={cn(
          'flex-col gap-3',
          target ? (sheetOpen ? 'flex' : 'hidden') : 'flex',
          // The sheet: from the bottom of a small screen, over the composer while it is open.
          sheetOpen &&
            'fixed inset-x-0 bottom-0 z-40 max-h-[80dvh] overflow-y-auto rounded-t-xl border-t border-border bg-card p-4 shadow-xl',
          'lg:static lg:z-auto lg:flex lg:max-h-none lg:overflow-visible lg:rounded-none lg:border-0 lg:bg-transparent lg:p-0 lg:shadow-none',
        )}
      >
        {session.startError ? <Alert>{session.startLimit ?? START_FAILED[session.startError]}</Alert> : null}
        {target ? (
          <>
            <div className="flex flex-wrap items-center gap-2">
              <h2 className="min-w-0 flex-1 truncate text-sm font-medium">{target.name}</h2>
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
            {wide ? question : null}
            <RunApproval runId={target.id} events={run.events} status={run.view.status} />
            {status === 'completed' ? (
              <p className="text-sm text-success-text">
                {noun} completed. The result is in the conversation.
              </p>
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
      </div>
    </section>
  );
}
