import { randomUUID } from 'node:crypto';
import {
  ACTIVE_CREW_RUN_STATUSES,
  ACTIVE_FLOW_RUN_STATUSES,
  approvingAnswerOf,
  CREW_INPUT_REQUIRED,
  INBOX_ANSWER_REQUIRED,
  RUN_ALREADY_ACTIVE,
  RUN_NOT_ACTIVE,
  RUN_NOT_WAITING,
  RUN_AWAITS_APPROVAL,
  RUN_STOPPED_SUMMARY,
  type TCrewRun,
  type TCrewRunTimeline,
  type TFlowRun,
  type TFlowRunTimeline,
  type TStartCrewRunResponse,
  type TStartFlowRunResponse,
  type ZStartCrewRunRequest,
  type ZStartFlowRunRequest,
  type ZTimelineQuery,
} from '@cc/contract';
import { z } from 'zod';
import { withTx } from '../../db/index.ts';
import type { RunAgent, RunDefinition, RunStep } from './engine/definition.ts';
import { inboxPortOf, runEngineOf, runInputSourceId } from './engine/engine-registry.ts';
import { announce, presentEvent, runChannel, WAKE_CHANNEL } from './engine/events.ts';
import * as repo from './engine/runs.repository.ts';
import * as approvals from './engine/tool-approvals.repository.ts';
import type { AuthUser } from '../../platform/auth/authenticate.ts';
import type { AppContext } from '../../platform/context.ts';
import { ownedBy } from '../../platform/access.ts';
import { AppError, conflict, notFound } from '../../platform/errors.ts';
import type { SseMessage } from '../../platform/realtime/sse.ts';
import { ownConversation } from '../conversations/conversations.service.ts';
import type { InboxHandler } from '../inbox/inbox.service.ts';
import { crewInputFieldsOf, crewTasksOf, flowStepsOf, parseJson } from '../factory/factory.presenter.ts';
import { agentsByIds, crewForRun, flowForRun, isForeignForRunner } from '../factory/factory.service.ts';
import { presentCrewRun, presentFlowRun } from './runs.presenter.ts';

const RUN_LIST_LIMIT = 100;
const now = () => new Date().toISOString();

function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; message?: string } | null;
  return (
    e?.code === '23505' ||
    e?.code === 'SQLITE_CONSTRAINT_UNIQUE' ||
    /UNIQUE constraint failed/i.test(e?.message ?? '')
  );
}

async function agentSnapshots(
  ctx: AppContext,
  caller: AuthUser,
  ids: (string | null)[],
): Promise<{ agents: Map<string, RunAgent>; anyForeign: boolean }> {
  const rows = await agentsByIds(ctx, [...new Set(ids.filter((i): i is string => !!i))]);
  const anyForeign = rows.some((a) => isForeignForRunner(a, caller.id));
  const agents = new Map(
    rows.map((a) => [
      a.id,
      {
        id: a.id,
        name: a.name,
        role: a.role,
        goal: a.goal,
        backstory: a.backstory,
        llm_model: a.llm_model,
        tool_ids: parseJson<string[]>(a.tool_ids, []),
      },
    ]),
  );
  return { agents, anyForeign };
}

/** Trimmed inputs; a crew that requires input needs at least one non-blank answer (spec section 5). */
function cleanInputs(inputs: Record<string, string>, requiresInput: boolean): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(inputs)) out[k.trim()] = v.trim();
  if (requiresInput && !Object.values(out).some((v) => v !== ''))
    throw new AppError(422, CREW_INPUT_REQUIRED);
  return out;
}

async function createRun(
  ctx: AppContext,
  caller: AuthUser,
  o: {
    kind: repo.RunKind;
    definitionId: string;
    name: string;
    definition: RunDefinition;
    inputs: Record<string, string>;
    conversationId: string | null;
    status: string;
    startEvent: repo.NewEvent;
  },
): Promise<repo.RunRow> {
  const ts = now();
  const row = {
    id: randomUUID(),
    kind: o.kind,
    user_id: caller.id,
    definition_id: o.definitionId,
    definition_name: o.name,
    definition: JSON.stringify(o.definition),
    conversation_id: o.conversationId,
    status: o.status,
    inputs: JSON.stringify(o.inputs),
    current_step: 0,
    outputs: '[]',
    human_prompt: null,
    human_answer: null,
    result: null,
    error: null,
    lease_owner: null,
    lease_expires_at: null,
    attempts: 0,
    created_at: ts,
    updated_at: ts,
    finished_at: null,
  };
  let events: repo.RunEventRow[];
  try {
    // The partial unique index on active runs per conversation decides between concurrent starts.
    events = await withTx(ctx.db, async (trx) => {
      await repo.insertRun(trx, row);
      return repo.insertEvents(trx, row.id, [o.startEvent]);
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(RUN_ALREADY_ACTIVE);
    throw err;
  }
  await announce(ctx, row, events);
  await ctx.bus.publish(WAKE_CHANNEL, { run: row.id });
  return row;
}

export async function startCrewRun(
  ctx: AppContext,
  caller: AuthUser,
  body: z.output<typeof ZStartCrewRunRequest>,
  conversationId: string | null,
): Promise<TStartCrewRunResponse> {
  if (conversationId) await ownConversation(ctx, caller, conversationId);
  const crew = await crewForRun(ctx, caller, body.crew_id);
  const tasks = crewTasksOf(crew);
  const requiresInput = crew.requires_input === 1 || crewInputFieldsOf(crew).length > 0;
  const inputs = cleanInputs(body.inputs, requiresInput);
  const { agents, anyForeign } = await agentSnapshots(
    ctx,
    caller,
    tasks.map((t) => t.agent_id),
  );
  const steps: RunStep[] = tasks.map((t) => ({
    name: t.name,
    kind: 'agent',
    description: t.description,
    expected_output: t.expected_output,
    human_prompt: t.human_input ? `Task "${t.name}" needs your input: ${t.description}` : null,
    agent: t.agent_id ? (agents.get(t.agent_id) ?? null) : null,
    tool_id: null,
  }));
  if (!steps.length) {
    steps.push({
      name: crew.name,
      kind: 'agent',
      description: crew.description ?? `Work on: ${crew.name}`,
      expected_output: null,
      human_prompt: null,
      agent: null,
      tool_id: null,
    });
  }
  const run = await createRun(ctx, caller, {
    kind: 'crew',
    definitionId: crew.id,
    name: crew.name,
    definition: { steps, foreign_item: anyForeign || isForeignForRunner(crew, caller.id) },
    inputs,
    conversationId,
    status: 'pending',
    startEvent: {
      type: 'crew_start',
      summary: `Crew "${crew.name}" started (${steps.length} task${steps.length === 1 ? '' : 's'})`,
      details: { crew_id: crew.id, tasks: steps.map((s) => s.name), inputs },
    },
  });
  return { crew_run_id: run.id, status: 'pending', conversation_id: run.conversation_id };
}

export async function startFlowRun(
  ctx: AppContext,
  caller: AuthUser,
  body: z.output<typeof ZStartFlowRunRequest>,
  conversationId: string | null,
): Promise<TStartFlowRunResponse> {
  if (conversationId) await ownConversation(ctx, caller, conversationId);
  const flow = await flowForRun(ctx, caller, body.flow_id);
  const stored = flowStepsOf(flow);
  const inputs = cleanInputs(body.inputs, false);
  const { agents, anyForeign } = await agentSnapshots(
    ctx,
    caller,
    stored.map((s) => s.agent_id),
  );
  const steps: RunStep[] = stored.map((s) => ({
    name: s.title,
    kind: s.kind,
    description: s.prompt ?? s.title,
    expected_output: null,
    human_prompt: s.kind === 'wait_for_human' ? (s.prompt ?? `${s.title}: please answer to continue`) : null,
    agent: s.agent_id ? (agents.get(s.agent_id) ?? null) : null,
    tool_id: s.tool_id,
    may_fail: s.may_fail === true,
  }));
  const run = await createRun(ctx, caller, {
    kind: 'flow',
    definitionId: flow.id,
    name: flow.name,
    definition: { steps, foreign_item: anyForeign || isForeignForRunner(flow, caller.id) },
    inputs,
    conversationId,
    status: 'running',
    startEvent: {
      type: 'flow_start',
      summary: `Flow "${flow.name}" started (${steps.length} step${steps.length === 1 ? '' : 's'})`,
      details: { flow_id: flow.id, steps: steps.map((s) => s.name), inputs },
    },
  });
  return { flow_run_id: run.id, status: 'running', conversation_id: run.conversation_id };
}

/** The run if it is the caller's and of this kind; anyone else gets 404 (never leak existence). */
async function ownRun(ctx: AppContext, caller: AuthUser, kind: repo.RunKind, id: string) {
  const run = await repo.findRun(ctx.db, id);
  return ownedBy(
    run?.kind === kind ? run : undefined,
    caller.id,
    `${kind === 'crew' ? 'Crew' : 'Flow'} run not found`,
  );
}

export async function listRuns(
  ctx: AppContext,
  caller: AuthUser,
  kind: repo.RunKind,
  conversationId: string | undefined,
): Promise<(TCrewRun | TFlowRun)[]> {
  if (conversationId) await ownConversation(ctx, caller, conversationId);
  const rows = await repo.listRuns(ctx.db, {
    userId: caller.id,
    kind,
    conversationId,
    limit: RUN_LIST_LIMIT,
  });
  return rows.map((r) => (kind === 'crew' ? presentCrewRun(r) : presentFlowRun(r)));
}

export async function getRun(ctx: AppContext, caller: AuthUser, kind: repo.RunKind, id: string) {
  const run = await ownRun(ctx, caller, kind, id);
  return kind === 'crew' ? presentCrewRun(run) : presentFlowRun(run);
}

export async function timeline(
  ctx: AppContext,
  caller: AuthUser,
  kind: repo.RunKind,
  id: string,
  q: z.output<typeof ZTimelineQuery>,
): Promise<TCrewRunTimeline | TFlowRunTimeline> {
  const run = await ownRun(ctx, caller, kind, id);
  const rows = await repo.eventsAfter(ctx.db, id, q.after ?? 0, q.limit);
  const events = rows.map((r) => presentEvent(r, run.conversation_id));
  return kind === 'crew'
    ? { ...presentCrewRun(run), timeline: events }
    : { ...presentFlowRun(run), timeline: events };
}

/** Stores the answer and makes the run runnable again (the worker resumes it at the waiting step). */
export async function continueRun(
  ctx: AppContext,
  caller: AuthUser,
  kind: repo.RunKind,
  id: string,
  userInput: string,
) {
  const run = await ownRun(ctx, caller, kind, id);
  // A call waiting for approval is decided on its own (approve / reject), not answered like a question.
  if (await approvals.hasPendingApproval(ctx.db, id)) throw conflict(RUN_AWAITS_APPROVAL);
  const waiting = kind === 'crew' ? 'awaiting_human_input' : 'paused';
  const rows = await repo.transition(
    ctx.db,
    id,
    [waiting],
    {
      status: 'running',
      human_answer: userInput.trim(),
      human_prompt: null,
      lease_owner: null,
      lease_expires_at: null,
      updated_at: now(),
    },
    [
      {
        type: 'human_input',
        summary: `Answer received: ${userInput.trim().slice(0, 200)}`,
        details: { user_input: userInput.trim() },
      },
    ],
  );
  if (!rows) throw conflict(run.finished_at ? RUN_NOT_ACTIVE : RUN_NOT_WAITING);
  await announce(ctx, run, rows);
  await ctx.bus.publish(WAKE_CHANNEL, { run: id });
  // Answered here or from the inbox: the question leaves the inbox at once.
  await inboxPortOf(ctx).resolve('run_input', runInputSourceId(id, run.current_step), {
    status: 'approved',
    resolvedBy: caller.id,
  });
  return getRun(ctx, caller, kind, id);
}

/** Ends the run as failed (spec: a stopped run is a failed one) and aborts its model call in flight. */
export async function stopRun(ctx: AppContext, caller: AuthUser, kind: repo.RunKind, id: string) {
  const run = await ownRun(ctx, caller, kind, id);
  const active = kind === 'crew' ? ACTIVE_CREW_RUN_STATUSES : ACTIVE_FLOW_RUN_STATUSES;
  const rows = await repo.transition(
    ctx.db,
    id,
    active,
    {
      status: 'failed',
      error: 'Stopped by the user',
      human_prompt: null,
      finished_at: now(),
      lease_owner: null,
      lease_expires_at: null,
      updated_at: now(),
    },
    [
      {
        type: kind === 'crew' ? 'crew_error' : 'terminal',
        summary: RUN_STOPPED_SUMMARY,
        details: { error: 'Stopped by the user' },
      },
    ],
  );
  if (!rows) throw conflict(RUN_NOT_ACTIVE);
  // The executing worker (on any instance) aborts the step in flight when it hears this.
  await ctx.bus.publish(runChannel(id), { kind: 'stop' });
  await announce(ctx, run, rows);
  // A stopped run waits for nobody: its question (if it was asking one) leaves the inbox, saying why.
  const reason = endedRunItemReason('Stopped by the user');
  await inboxPortOf(ctx).resolve('run_input', runInputSourceId(id, run.current_step), {
    status: 'rejected',
    resolvedBy: caller.id,
    reason,
  });
  await resolveWaitingCalls(ctx, caller, id, reason);
  return getRun(ctx, caller, kind, id);
}

/** The run of a `run_input` item and the account it acts as (the inbox acts as them, even when delegated). */
async function waitingRun(ctx: AppContext, sourceId: string) {
  const [runId, at] = sourceId.split(':');
  const run = await repo.findRun(ctx.db, runId ?? '');
  const owner = run && (await runEngineOf(ctx).ports.users(ctx, run.user_id));
  if (!run || !owner) throw notFound('Run not found');
  // The item of an earlier question: the run has moved on.
  if (String(run.current_step) !== at || !run.human_prompt) throw conflict(RUN_NOT_WAITING);
  return { run, owner, kind: run.kind as repo.RunKind };
}

/**
 * `run_input` items of the approvals inbox: approve = answer the question (`edits.answer`) and the run
 * goes on; without an answer, a question that asks for an approval gets the answer it names as the
 * approval (one-click Approve, `approvingAnswerOf`), any other question is a 422. Reject = what the run
 * page's Stop does (the run ends as failed), the reason kept on the item.
 */
export const runInputInboxHandler: InboxHandler = {
  async approve(ctx, _actor, sourceId, edits) {
    const { run, owner, kind } = await waitingRun(ctx, sourceId);
    const given = edits.answer;
    const { answer } = ZRunInputEdits.parse({
      answer: given === undefined ? (approvingAnswerOf(run.human_prompt) ?? undefined) : given,
    });
    await continueRun(ctx, owner, kind, run.id, answer);
  },
  async reject(ctx, _actor, sourceId) {
    const { run, owner, kind } = await waitingRun(ctx, sourceId);
    await stopRun(ctx, owner, kind, run.id);
  },
};

const ZRunInputEdits = z.object({
  answer: z
    .string({ message: INBOX_ANSWER_REQUIRED })
    .max(20_000)
    .transform((s) => s.trim())
    .refine((s) => s !== '', INBOX_ANSWER_REQUIRED),
});

/**
 * A stopped run waits for nothing: its calls still pending leave the inbox (they stay undecided), and
 * an interrupted call it was asking about ends `stopped` (final) and leaves the inbox too.
 */
async function resolveWaitingCalls(
  ctx: AppContext,
  caller: AuthUser,
  runId: string,
  reason: string,
): Promise<void> {
  const { inbox } = runEngineOf(ctx);
  for (const approvalId of await approvals.pendingApprovalIds(ctx.db, runId)) {
    await inbox
      .resolve('tool_approval', approvalId, { status: 'resolved', resolvedBy: caller.id, reason })
      .catch(() => {});
  }
  for (const approvalId of await approvals.stopInterrupted(ctx.db, runId)) {
    await inbox
      .resolve('interrupted_call', approvalId, { status: 'resolved', resolvedBy: caller.id, reason })
      .catch(() => {});
  }
}

/** What an inbox item of a run that ended failed keeps as its reason: the run's own error. */
export const endedRunItemReason = (error: string) => `The run failed: ${error}`;

/** SSE options for a run's stream (the route checks ownership first): the timeline, then live. */
export async function runStreamOptions(ctx: AppContext, caller: AuthUser, kind: repo.RunKind, id: string) {
  const run = await ownRun(ctx, caller, kind, id);
  return {
    channel: runChannel(id),
    // Every follower of the run gets the same events: one read per new event, however many follow.
    shareKey: runChannel(id),
    // announce() notes a run's events once their transaction is on disk.
    durableCursor: (p: Record<string, unknown>) =>
      p.kind === 'event' && p.seq != null ? String(p.seq) : null,
    loadAfter: async (cursor: string | null, limit: number): Promise<SseMessage[]> => {
      const after = Number.parseInt(cursor ?? '0', 10);
      const rows = await repo.eventsAfter(ctx.db, id, Number.isFinite(after) && after > 0 ? after : 0, limit);
      return rows.map((r) => ({
        id: String(r.seq),
        event: 'run_event',
        data: presentEvent(r, run.conversation_id),
      }));
    },
    onEphemeral: () => null,
    isTerminal: (m: SseMessage) => {
      const t = (m.data as { type?: string } | null)?.type;
      return t === 'terminal' || t === 'crew_end' || t === 'crew_error';
    },
  };
}

/**
 * The names of the runs the reader's inbox items wait in (the brief's wording): the item, not the
 * run, is the reader's (a delegated item's run is its owner's), and the item already names the run.
 */
export function runNamesOf(ctx: AppContext, runIds: readonly string[]) {
  return repo.runNames(ctx.db, [...new Set(runIds)]);
}

/** The person's runs that completed in [since, until) (the brief's "why it moved" evidence). */
export function runsFinishedBetween(
  ctx: AppContext,
  userId: string,
  since: string,
  until: string,
  limit: number,
) {
  return repo.runsFinishedBetween(ctx.db, { userId, since, until, limit });
}

/** The person's runs that ended failed in [since, until), each with its reason (the brief lists them). */
export function runsFailedBetween(
  ctx: AppContext,
  userId: string,
  since: string,
  until: string,
  limit: number,
) {
  return repo.runsFailedBetween(ctx.db, { userId, since, until, limit });
}
