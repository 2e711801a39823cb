import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useParams } from 'react-router';
import { Markdown } from '../../../components/markdown/markdown';
import { PageHeader } from '../../../components/page-header';
import { Alert } from '../../../components/ui/alert';
import { Card } from '../../../components/ui/card';
import { Spinner } from '../../../components/ui/spinner';
import { notify } from '../../../lib/toast';
import { type RunKind, runKeys, useContinueRun, useRunTimeline } from '../api';
import { HumanPrompt } from '../components/human-prompt';
import { RunApproval } from '../components/run-approval';
import { RunTimeline } from '../components/run-timeline';
import { RunStatusBadge } from '../components/status-badge';
import { isActiveStatus } from '../run-state';
import { useRunFollower, useRunView } from '../use-run';

export const RUN_NOT_FOUND = 'This run does not exist or is not yours.';

/**
 * /app/runs/:kind/:runId — one crew or flow run, followed live: its question or the tool call it
 * waits on (Approve / Edit / Reject), the timeline and the result. The inbox links here.
 */
export default function RunDetailPage() {
  const params = useParams();
  const kind: RunKind = params.kind === 'flow' ? 'flow' : 'crew';
  const id = params.runId ?? '';
  const queryClient = useQueryClient();
  const loaded = useRunTimeline(kind, id);
  const name =
    (loaded.data && ('crew_name' in loaded.data ? loaded.data.crew_name : loaded.data.flow_name)) || 'Run';
  const target = id ? { kind, id, name } : null;
  const [answered, setAnswered] = useState<string | null>(null);
  const run = useRunView(target, answered);
  const status = loaded.data ? run.view.status : null;
  useRunFollower(target, status !== null && isActiveStatus(status), run.timelineSettled);
  const cont = useContinueRun();

  const onAnswer = (answer: string) => {
    const answering = run.promptKey;
    cont.mutate(
      { kind, id, userInput: answer },
      {
        onSuccess: () => {
          setAnswered(answering);
          void queryClient.invalidateQueries({ queryKey: runKeys.timeline(kind, id) });
        },
        onError: (err) => notify.error('Failed to send your answer', err.message),
      },
    );
  };

  return (
    <div className="flex flex-col gap-6">
      <PageHeader title={name} description={kind === 'flow' ? 'Flow run' : 'Crew run'} />
      {loaded.isError ? (
        <Alert>{RUN_NOT_FOUND}</Alert>
      ) : run.loading ? (
        <Spinner label="Loading the run" />
      ) : (
        <Card className="flex flex-col gap-4 p-4 sm:p-6">
          <RunStatusBadge kind={kind} status={status} />
          {run.showPrompt && run.view.prompt ? (
            <HumanPrompt
              key={run.promptKey ?? 'prompt'}
              prompt={run.view.prompt}
              previousOutput={run.previousOutput}
              pending={cont.isPending}
              onAnswer={onAnswer}
            />
          ) : null}
          {status ? <RunApproval runId={id} events={run.events} status={status} /> : null}
          {run.view.result && status === 'completed' ? (
            <section aria-label="Result" className="rounded-md border border-border p-3">
              <Markdown content={run.view.result} className="text-sm" />
            </section>
          ) : null}
          <RunTimeline events={run.events} label={`${name} timeline`} />
        </Card>
      )}
    </div>
  );
}
