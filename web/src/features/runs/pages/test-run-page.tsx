import { ExternalLink, FlaskConical, Play } from 'lucide-react';
import type { TRunEstimate } from '@cc/contract';
import { type FormEvent, useEffect, useState } from 'react';
import { Link } from 'react-router';
import { FormField } from '../../../components/form-field';
import { PageHeader } from '../../../components/page-header';
import { Alert } from '../../../components/ui/alert';
import { buttonVariants, Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Select } from '../../../components/ui/select';
import { Spinner } from '../../../components/ui/spinner';
import { serverDetail } from '../../../lib/api';
import { notify } from '../../../lib/toast';
import { useConversations } from '../../../lib/queries/conversations';
import { useCrews } from '../../../lib/queries/factory-items';
import { fetchRunEstimate, useInputSchema, useStartRun } from '../api';
import { RunCostConfirm } from '../components/run-cost-confirm';
import { CrewInputFields, validateCrewInputs } from '../components/crew-input-form';
import { isActiveStatus } from '../run-state';
import { RunApproval } from '../components/run-approval';
import { RunTimeline } from '../components/run-timeline';
import { RunStatusBadge } from '../components/status-badge';
import { type RunTarget, useRunFollower, useRunView } from '../use-run';

export const PICK_CONVERSATION_AND_CREW = 'Choose a conversation and a crew';

/** /app/test-run: pick a conversation and a crew, fill the crew's input fields, start it and watch it. */
export default function TestRunPage() {
  const conversations = useConversations();
  const crews = useCrews();
  const start = useStartRun();
  const [conversationId, setConversationId] = useState('');
  const [crewId, setCrewId] = useState('');
  const [values, setValues] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [target, setTarget] = useState<(RunTarget & { conversationId: string }) | null>(null);
  // A run estimated above the person's threshold waits for their confirmation (spend governance).
  const [confirming, setConfirming] = useState<{
    name: string;
    estimate: TRunEstimate;
    launch: () => void;
  } | null>(null);
  const [estimating, setEstimating] = useState(false);
  const schema = useInputSchema(crewId || null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: another crew asks other questions.
  useEffect(() => {
    setValues({});
    setError(null);
  }, [crewId]);

  const run = useRunView(target);
  const status = target ? run.view.status : null;
  useRunFollower(target, status !== null && isActiveStatus(status), run.timelineSettled);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!conversationId || !crewId) return setError(PICK_CONVERSATION_AND_CREW);
    if (!schema.data) return;
    const checked = validateCrewInputs(schema.data, values);
    if (!checked.inputs) return setError(checked.error);
    setError(null);
    const crewName = crews.data?.find((c) => c.id === crewId)?.name ?? 'Crew';
    const inputs = checked.inputs;
    const launch = () =>
      start.mutate(
        { kind: 'crew', itemId: crewId, conversationId, inputs },
        {
          onSuccess: (id) => {
            setTarget({ kind: 'crew', id, name: crewName, conversationId });
            notify.success('Crew started');
          },
          onError: (err) => {
            console.error('Failed to start the crew', err);
            notify.error('Failed to start crew', serverDetail(err));
          },
        },
      );
    setEstimating(true);
    void fetchRunEstimate('crew', crewId).then((estimate) => {
      setEstimating(false);
      if (estimate?.needs_confirmation) setConfirming({ name: crewName, estimate, launch });
      else launch();
    });
  };

  return (
    <div className="flex flex-col gap-6">
      <PageHeader
        title="Test Run"
        description="Pick a conversation and a crew, fill in the crew's inputs, and start a run."
      />
      <div className="grid gap-6 lg:grid-cols-2">
        <Card className="p-4 sm:p-6">
          <form onSubmit={submit} noValidate className="flex flex-col gap-4" aria-label="Start a test run">
            <FormField id="test-run-conversation" label="Conversation">
              <Select
                id="test-run-conversation"
                value={conversationId}
                onChange={(e) => setConversationId(e.target.value)}
                disabled={conversations.isPending}
              >
                <option value="">Select a conversation</option>
                {(conversations.data ?? []).map((c) => (
                  <option key={c.id} value={c.id}>
                    {c.name}
                  </option>
                ))}
              </Select>
            </FormField>
            {conversations.isSuccess && conversations.data.length === 0 ? (
              <p className="text-xs text-muted-foreground">
                No AI interactions yet.{' '}
                <Link className="text-primary underline" to="/app/run">
                  Start a new interaction to begin.
                </Link>
              </p>
            ) : null}
            <FormField id="test-run-crew" label="Crew">
              <Select
                id="test-run-crew"
                value={crewId}
                onChange={(e) => setCrewId(e.target.value)}
                disabled={crews.isPending}
              >
                <option value="">Select a crew</option>
                {(crews.data ?? []).map((c) => (
                  <option key={c.id} value={c.id}>
                    {c.name}
                  </option>
                ))}
              </Select>
            </FormField>
            {crewId && schema.isPending ? <Spinner label="Loading the crew's fields" /> : null}
            {schema.isError ? <Alert>{schema.error.message}</Alert> : null}
            {crewId && schema.data ? (
              schema.data.requires_input ? (
                <CrewInputFields
                  schema={schema.data}
                  idPrefix="test-run-input"
                  values={values}
                  onChange={setValues}
                />
              ) : (
                <p className="text-sm text-muted-foreground">This crew needs no input.</p>
              )
            ) : null}
            {error ? (
              <p role="alert" className="text-sm font-medium text-danger-text">
                {error}
              </p>
            ) : null}
            <Button
              type="submit"
              className="self-start"
              disabled={start.isPending || estimating || (Boolean(crewId) && schema.isPending)}
            >
              {start.isPending ? <Spinner /> : <Play aria-hidden="true" />}
              Start run
            </Button>
          </form>
        </Card>

        <Card className="flex flex-col gap-4 p-4 sm:p-6" aria-labelledby="test-run-status">
          <div className="flex flex-wrap items-center gap-2">
            <h2 id="test-run-status" className="text-lg font-semibold">
              Status
            </h2>
            <RunStatusBadge kind={target?.kind ?? null} status={status} />
          </div>
          {target ? (
            <>
              <div className="flex flex-wrap items-center gap-2 text-sm">
                <span className="font-medium">{target.name}</span>
                <Link
                  to={`/app/conversations/${encodeURIComponent(target.conversationId)}`}
                  className={buttonVariants({ variant: 'link', size: 'sm' })}
                >
                  Open the conversation
                  <ExternalLink aria-hidden="true" />
                </Link>
              </div>
              {status && (status === 'running' || status === 'pending' || status === 'started') ? (
                <p role="status" className="flex items-center gap-2 text-sm text-info-text">
                  <Spinner />
                  Crew running...
                </p>
              ) : null}
              {run.view.prompt && status && isActiveStatus(status) ? (
                <Alert variant="info">
                  The crew is waiting for an answer: {run.view.prompt} Answer it in the conversation.
                </Alert>
              ) : null}
              <RunApproval runId={target.id} events={run.events} status={run.view.status} />
              <RunTimeline events={run.events} label={`${target.name} timeline`} />
            </>
          ) : (
            <div className="flex flex-col items-center gap-2 py-8 text-center text-sm text-muted-foreground">
              <FlaskConical className="size-6 text-primary" aria-hidden="true" />
              Start a run to follow its timeline here.
            </div>
          )}
        </Card>
      </div>
      <RunCostConfirm
        pending={confirming}
        onConfirm={() => {
          confirming?.launch();
          setConfirming(null);
        }}
        onCancel={() => setConfirming(null)}
      />
    </div>
  );
}
