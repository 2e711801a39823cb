import type {
  TRunEstimate,
  TCrewInputSchema,
  TCrewRun,
  TCrewRunTimeline,
  TFlowRun,
  TFlowRunTimeline,
  TStartCrewRunResponse,
  TStartFlowRunResponse,
  TInterruptedCallAnswer,
  TToolApproval,
} from '@cc/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, isApiError } from '../../lib/api';

export type RunKind = 'crew' | 'flow';

/** The crews, flows and conversations to pick from are the shared lists of lib/queries. */
export const runKeys = {
  all: ['runs'] as const,
  inputSchema: (crewId: string) => ['factory', 'crew', crewId, 'input-schema'] as const,
  inConversation: (conversationId: string) => ['runs', 'conversation', conversationId] as const,
  timeline: (kind: RunKind, id: string) => ['runs', kind, id, 'timeline'] as const,
};

const base = (kind: RunKind) => (kind === 'crew' ? '/api/crew-runs/' : '/api/flow-runs/');
export const runPath = (kind: RunKind, id: string) => `${base(kind)}${encodeURIComponent(id)}`;
export const runEventsPath = (kind: RunKind, id: string) => `${runPath(kind, id)}/events`;

/**
 * Whether a run id is a crew run or a flow run (a citation names a run by id alone): its kind, or null
 * when neither is the caller's (both answer 404).
 */
export async function findRunKind(id: string): Promise<RunKind | null> {
  for (const kind of ['crew', 'flow'] as const) {
    try {
      await api<unknown>(runPath(kind, id));
      return kind;
    } catch (err) {
      if (!(isApiError(err) && err.status === 404)) throw err;
    }
  }
  return null;
}

export const inputSchemaQuery = (crewId: string) => ({
  queryKey: runKeys.inputSchema(crewId),
  queryFn: ({ signal }: { signal?: AbortSignal }) =>
    api<TCrewInputSchema>(`/api/crews/${encodeURIComponent(crewId)}/input-schema`, { signal }),
});

export const useInputSchema = (crewId: string | null) =>
  useQuery({ ...inputSchemaQuery(crewId ?? ''), enabled: Boolean(crewId) });

export interface ConversationRuns {
  crewRuns: TCrewRun[];
  flowRuns: TFlowRun[];
}

/** Both run lists of a conversation (newest first); a failed list counts as empty. */
export const useConversationRuns = (conversationId: string | null) =>
  useQuery({
    queryKey: runKeys.inConversation(conversationId ?? ''),
    enabled: Boolean(conversationId),
    queryFn: async ({ signal }): Promise<ConversationRuns> => {
      const query = { conversation_id: conversationId };
      const [crewRuns, flowRuns] = await Promise.all([
        api<TCrewRun[]>('/api/crew-runs/', { signal, query }).catch(() => []),
        api<TFlowRun[]>('/api/flow-runs/', { signal, query }).catch(() => []),
      ]);
      return { crewRuns, flowRuns };
    },
    staleTime: 0,
  });

export type RunTimeline = TCrewRunTimeline | TFlowRunTimeline;

/** The run with its timeline; a failed load gives an empty timeline (spec section 8). */
export const useRunTimeline = (kind: RunKind, id: string | null) =>
  useQuery({
    queryKey: runKeys.timeline(kind, id ?? ''),
    enabled: Boolean(id),
    queryFn: ({ signal }) => api<RunTimeline>(`${runPath(kind, id ?? '')}/timeline`, { signal }),
    retry: false,
    staleTime: 0,
  });

export interface StartRunVars {
  kind: RunKind;
  itemId: string;
  conversationId: string;
  inputs: Record<string, string>;
}

/** Starts a crew or flow run; a reply without a run id is a failure (spec section 7). */
export const useStartRun = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ kind, itemId, conversationId, inputs }: StartRunVars) => {
      const query = { conversation_id: conversationId };
      if (kind === 'crew') {
        const reply = await api<TStartCrewRunResponse>(base('crew'), {
          method: 'POST',
          query,
          json: { crew_id: itemId, inputs },
        });
        if (!reply?.crew_run_id) throw new Error('The server did not return a run id');
        return reply.crew_run_id;
      }
      const reply = await api<TStartFlowRunResponse>(base('flow'), {
        method: 'POST',
        query,
        json: { flow_id: itemId, inputs },
      });
      if (!reply?.flow_run_id) throw new Error('The server did not return a run id');
      return reply.flow_run_id;
    },
    onSettled: (_id, _err, { conversationId }) =>
      queryClient.invalidateQueries({ queryKey: runKeys.inConversation(conversationId) }),
  });
};

export const useContinueRun = () =>
  useMutation({
    mutationFn: ({ kind, id, userInput }: { kind: RunKind; id: string; userInput: string }) =>
      api<unknown>(`${runPath(kind, id)}/continue`, { method: 'POST', json: { user_input: userInput } }),
  });

export const useStopRun = () =>
  useMutation({
    mutationFn: ({ kind, id }: { kind: RunKind; id: string }) =>
      api<unknown>(`${runPath(kind, id)}/stop`, { method: 'POST' }),
  });

export type ToolCallDecision =
  | { runId: string; approvalId: string; approve: true; arguments?: Record<string, unknown> }
  | { runId: string; approvalId: string; approve: false; reason: string };

/** Approve (optionally with edited arguments) or reject a tool call the run waits on. */
export const useDecideToolCall = () =>
  useMutation({
    mutationFn: (d: ToolCallDecision) => {
      const path = `/api/runs/${encodeURIComponent(d.runId)}/approvals/${encodeURIComponent(d.approvalId)}`;
      return d.approve
        ? api<TToolApproval>(`${path}/approve`, {
            method: 'POST',
            json: d.arguments ? { edits: { arguments: d.arguments } } : {},
          })
        : api<TToolApproval>(`${path}/reject`, { method: 'POST', json: { reason: d.reason } });
    },
  });

/** The answer to "This call was interrupted; did it go through?" (went through / retry / stop). */
export const useAnswerInterruptedCall = () =>
  useMutation({
    mutationFn: (d: { runId: string; approvalId: string; answer: TInterruptedCallAnswer }) =>
      api<TToolApproval>(
        `/api/runs/${encodeURIComponent(d.runId)}/approvals/${encodeURIComponent(d.approvalId)}/answer`,
        { method: 'POST', json: { answer: d.answer } },
      ),
  });

/**
 * What starting a crew or flow is likely to cost, and whether the caller asked to confirm above it
 * (spend governance). Null when the estimate cannot be had: a run is never blocked on it.
 */
export async function fetchRunEstimate(kind: RunKind, id: string): Promise<TRunEstimate | null> {
  try {
    return await api<TRunEstimate>(`/api/${kind}s/${encodeURIComponent(id)}/estimate`, {
      skipSessionRule: true,
    });
  } catch {
    return null;
  }
}
