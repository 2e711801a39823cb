import { ACTIVE_CREW_RUN_STATUSES, ACTIVE_FLOW_RUN_STATUSES } from '@cc/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Play } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { inputSchemaQuery, type RunKind, useConversationRuns } from '../api';
import { type PickedItem, RunPicker } from './run-picker';
import { isActiveStatus } from '../run-state';
import { useRunSession } from '../session-store';
import { RunStatusBadge } from './status-badge';
import { useRunFollower, useRunView } from '../use-run';
import { useStartRunIn } from '../use-start-run';
import { RunCostConfirm } from './run-cost-confirm';

/** Navigation state from the Factory's Run buttons (the same shape as its StartRunState). */
interface StartRunState {
  startRun?: { kind?: unknown; id?: unknown; name?: unknown };
}

/**
 * The header half of the run controls: the status badge and the searchable crew/flow picker. It also
 * resumes the conversation's first active run on opening, starts a run handed over by the Factory,
 * and follows the run's live stream for both halves.
 */
export function HeaderRunControls({
  conversationId,
  replying,
}: {
  conversationId: string;
  replying: boolean;
}) {
  const queryClient = useQueryClient();
  const location = useLocation();
  const navigate = useNavigate();
  const [session, patch] = useRunSession(conversationId);
  const runs = useConversationRuns(conversationId);
  const { startRun, pending, confirmation } = useStartRunIn(conversationId);
  const run = useRunView(session.target, session.answered);
  const status = session.target ? run.view.status : null;
  const active = status !== null && isActiveStatus(status);
  useRunFollower(session.target, active, run.timelineSettled);

  // Resume the first run of this conversation that is still active (spec section 4), once per opening.
  const resumed = useRef<string | null>(null);
  useEffect(() => {
    if (!runs.data || resumed.current === conversationId) return;
    resumed.current = conversationId;
    const crew = runs.data.crewRuns.find((r) => ACTIVE_CREW_RUN_STATUSES.includes(r.status));
    const flow = runs.data.flowRuns.find((r) => ACTIVE_FLOW_RUN_STATUSES.includes(r.status));
    if (crew) patch({ target: { kind: 'crew', id: crew.crew_run_id || crew.id, name: crew.crew_name } });
    else if (flow) patch({ target: { kind: 'flow', id: flow.flow_run_id || flow.id, name: flow.flow_name } });
  }, [runs.data, conversationId, patch]);

  // A Run button in the Factory opened this conversation: start that crew or flow here, once.
  const handled = useRef<string | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once per navigation (location.key).
  useEffect(() => {
    const wanted = (location.state as StartRunState | null)?.startRun;
    if (!wanted || handled.current === location.key) return;
    handled.current = location.key;
    navigate(`${location.pathname}${location.search}`, { replace: true, state: null });
    const kind: RunKind = wanted.kind === 'flow' ? 'flow' : 'crew';
    const item: PickedItem = { kind, id: String(wanted.id ?? ''), name: String(wanted.name ?? '') };
    if (!item.id) return;
    if (kind === 'flow') return startRun(item, {});
    queryClient
      .fetchQuery(inputSchemaQuery(item.id))
      .then((schema) => {
        if (schema.requires_input) patch({ asking: { item, schema }, pickerOpen: true });
        else startRun(item, {});
      })
      .catch(() => startRun(item, {}));
  }, [location.key]);

  return (
    <div className="flex flex-wrap items-center gap-2">
      <RunStatusBadge kind={session.target?.kind ?? null} status={status} />
      {!active ? (
        <Button
          size="sm"
          variant="secondary"
          onClick={() => patch({ asking: null, pickerOpen: true })}
          disabled={pending || replying}
        >
          {pending ? <Spinner /> : <Play aria-hidden="true" />}
          Start crew or flow
        </Button>
      ) : null}
      <RunPicker
        open={session.pickerOpen}
        onOpenChange={(o) => patch(o ? { pickerOpen: true } : { pickerOpen: false, asking: null })}
        asking={session.asking}
        onAskingChange={(asking) => patch({ asking })}
        pending={pending}
        onStart={startRun}
      />
      <RunCostConfirm
        pending={confirmation}
        onConfirm={() => confirmation?.confirm()}
        onCancel={() => confirmation?.cancel()}
      />
    </div>
  );
}
