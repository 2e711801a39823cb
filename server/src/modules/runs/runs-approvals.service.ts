import {
  APPROVAL_ALREADY_DECIDED,
  APPROVAL_EDIT_OWNER_ONLY,
  APPROVAL_GRANTED_EVENT,
  APPROVAL_NOT_FOUND,
  APPROVAL_REJECTED_EVENT,
  CALL_INTERRUPTION_ANSWERED_EVENT,
  INTERRUPTED_CALL_ANSWER_LABELS,
  INTERRUPTED_CALL_ANSWER_REQUIRED,
  INTERRUPTED_CALL_NOT_WAITING,
  INTERRUPTED_CALL_STOPPED,
  INTERRUPTED_CALL_WENT_THROUGH_RESULT,
  RUN_NOT_ACTIVE,
  RUN_STOPPED_SUMMARY,
  type TInterruptedCallAnswer,
  type TToolApproval,
  type TToolApprovalList,
  ZAnswerInterruptedCallRequest,
} from '@cc/contract';
import type { ToolApprovalsTable } from '../../db/types.ts';
import type { AuthUser } from '../../platform/auth/authenticate.ts';
import type { AppContext } from '../../platform/context.ts';
import { ownedBy } from '../../platform/access.ts';
import { AppError, conflict, forbidden, notFound } from '../../platform/errors.ts';
import type { InboxHandler } from '../inbox/inbox.service.ts';
import { presentApproval } from './engine/approval-view.ts';
import { runEngineOf } from './engine/engine-registry.ts';
import { announce, WAKE_CHANNEL } from './engine/events.ts';
import type { NewEvent } from './engine/runs.repository.ts';
import * as repo from './engine/runs.repository.ts';
import * as approvals from './engine/tool-approvals.repository.ts';
import { mayEditArguments } from './runs-approvals.policy.ts';

/**
 * Deciding a tool call a run waits on (issue 19 section 1). Only the run's owner may see or decide
 * its calls (404 for anyone else). The decision and the run's move back to `running` are one write;
 * the worker then runs the step again: an approved call is made once (see approval-gate.ts), a
 * rejected one gives the agent the person's reason as the tool's result.
 */

export interface ToolCallEdits {
  arguments?: Record<string, unknown>;
}

/** The approval when the caller owns its run (and it belongs to `runId` when given); 404 otherwise. */
async function ownApproval(ctx: AppContext, caller: AuthUser, approvalId: string, runId: string | null) {
  const found = await approvals.findApproval(ctx.db, approvalId);
  const row = ownedBy(
    runId === null || found?.run_id === runId ? found : undefined,
    caller.id,
    APPROVAL_NOT_FOUND,
  );
  const run = ownedBy(await repo.findRun(ctx.db, row.run_id), caller.id, APPROVAL_NOT_FOUND);
  return { row, run };
}

export async function listRunApprovals(
  ctx: AppContext,
  caller: AuthUser,
  runId: string,
): Promise<TToolApprovalList> {
  ownedBy(await repo.findRun(ctx.db, runId), caller.id, 'Run not found');
  return { items: (await approvals.listApprovals(ctx.db, runId)).map(presentApproval) };
}

async function decide(
  ctx: AppContext,
  caller: AuthUser,
  approvalId: string,
  runId: string | null,
  decision: { approve: true; edits?: ToolCallEdits } | { approve: false; reason: string },
): Promise<TToolApproval> {
  const { row, run } = await ownApproval(ctx, caller, approvalId, runId);
  const ts = new Date().toISOString();
  const edited = decision.approve && decision.edits?.arguments !== undefined;
  const reason = decision.approve ? null : decision.reason.trim();
  const result = await approvals.decideApproval(ctx.db, {
    id: row.id,
    runId: run.id,
    waitingStatuses: [run.kind === 'crew' ? 'awaiting_human_input' : 'paused'],
    set: {
      status: decision.approve ? 'approved' : 'rejected',
      decided_by: caller.id,
      decided_at: ts,
      reason,
      ...(edited ? { edited: 1, arguments: JSON.stringify(decision.edits?.arguments) } : {}),
    },
    runSet: { status: 'running', lease_owner: null, lease_expires_at: null },
    events: [
      decision.approve
        ? {
            type: APPROVAL_GRANTED_EVENT,
            summary: `Approved${edited ? ' with edited arguments' : ''}: ${row.tool_name}`,
            details: { approval_id: row.id, edited },
          }
        : {
            type: APPROVAL_REJECTED_EVENT,
            summary: `Rejected: ${row.tool_name} (${reason})`,
            details: { approval_id: row.id, reason },
          },
    ],
  });
  if (result.outcome === 'already_decided') throw conflict(APPROVAL_ALREADY_DECIDED);
  if (result.outcome === 'run_not_waiting') throw conflict(RUN_NOT_ACTIVE);
  await announce(ctx, run, result.rows);
  await ctx.bus.publish(WAKE_CHANNEL, { run: run.id });
  await runEngineOf(ctx)
    .inbox.resolve('tool_approval', row.id, {
      status: decision.approve ? 'approved' : 'rejected',
      resolvedBy: caller.id,
      ...(reason ? { reason } : {}),
    })
    // The decision is made and the run goes on; the inbox catches up on its next read.
    .catch(() => {});
  const stored = await approvals.findApproval(ctx.db, row.id);
  return presentApproval(stored ?? row);
}

/** Approve (optionally with edited arguments): the run resumes and makes the call once. */
export function approveToolCall(
  ctx: AppContext,
  caller: AuthUser,
  approvalId: string,
  edits?: ToolCallEdits,
  runId: string | null = null,
): Promise<TToolApproval> {
  return decide(ctx, caller, approvalId, runId, { approve: true, edits });
}

/** Reject with a non-blank reason: the agent gets it as the tool's result and the run goes on. */
export function rejectToolCall(
  ctx: AppContext,
  caller: AuthUser,
  approvalId: string,
  reason: string,
  runId: string | null = null,
): Promise<TToolApproval> {
  return decide(ctx, caller, approvalId, runId, { approve: false, reason });
}

/**
 * `tool_approval` items of the approvals inbox: approve (optionally `{edits: {arguments}}`) and reject
 * decide the call as the run's owner, whoever the item was delegated to — acting in the inbox is the
 * same as acting on the run page. Only the owner may edit the arguments: a delegate's edits are
 * refused (403) and nothing is decided.
 */
export const toolApprovalInboxHandler: InboxHandler = {
  async approve(ctx, actor, approvalId, edits) {
    const owner = await approvalOwner(ctx, approvalId);
    const args = edits.arguments;
    if (args !== undefined && !mayEditArguments({ user_id: owner.id }, actor.id))
      throw forbidden(APPROVAL_EDIT_OWNER_ONLY);
    const callEdits =
      args && typeof args === 'object' && !Array.isArray(args)
        ? { arguments: args as Record<string, unknown> }
        : undefined;
    await approveToolCall(ctx, owner, approvalId, callEdits);
  },
  async reject(ctx, _actor, approvalId, reason) {
    await rejectToolCall(ctx, await approvalOwner(ctx, approvalId), approvalId, reason);
  },
};

async function approvalOwner(ctx: AppContext, approvalId: string): Promise<AuthUser> {
  const row = await approvals.findApproval(ctx.db, approvalId);
  const owner = row && (await runEngineOf(ctx).ports.users(ctx, row.user_id));
  if (!owner) throw notFound(APPROVAL_NOT_FOUND);
  return owner;
}

const answerSet = (answer: TInterruptedCallAnswer): Partial<ToolApprovalsTable> => {
  switch (answer) {
    case 'went_through':
      return { status: 'done', result: JSON.stringify({ body: INTERRUPTED_CALL_WENT_THROUGH_RESULT }) };
    case 'retry':
      // Approved again: the resumed step claims it and sends it once more (approved → executing → done).
      return { status: 'approved' };
    case 'stop':
      return { status: 'stopped', reason: INTERRUPTED_CALL_STOPPED };
  }
};

/**
 * The person's answer to "This call was interrupted; did it go through?" (issue 46 row 8). It went
 * through: the call ends `done` and the agent is told so; it did not: it is approved again and sent
 * once more; stop: the call ends `stopped` and the run fails as stopped. The call's change and the
 * run's are one write (409 when the call no longer waits for an answer).
 */
export async function answerInterruptedCall(
  ctx: AppContext,
  caller: AuthUser,
  approvalId: string,
  answer: TInterruptedCallAnswer,
  runId: string | null = null,
): Promise<TToolApproval> {
  const { row, run } = await ownApproval(ctx, caller, approvalId, runId);
  if (row.status !== 'interrupted') throw conflict(INTERRUPTED_CALL_NOT_WAITING);
  const stop = answer === 'stop';
  const ts = new Date().toISOString();
  const events: NewEvent[] = [
    {
      type: CALL_INTERRUPTION_ANSWERED_EVENT,
      summary: `${INTERRUPTED_CALL_ANSWER_LABELS[answer]}: ${row.tool_name}`,
      details: { approval_id: row.id, answer },
    },
  ];
  if (stop)
    events.push({
      type: run.kind === 'crew' ? 'crew_error' : 'terminal',
      summary: RUN_STOPPED_SUMMARY,
      details: { error: INTERRUPTED_CALL_STOPPED },
    });
  const released = { lease_owner: null, lease_expires_at: null };
  const result = await approvals.decideApproval(ctx.db, {
    id: row.id,
    runId: run.id,
    fromStatus: 'interrupted',
    waitingStatuses: [run.kind === 'crew' ? 'awaiting_human_input' : 'paused'],
    set: answerSet(answer),
    runSet: stop
      ? {
          status: 'failed',
          error: INTERRUPTED_CALL_STOPPED,
          human_prompt: null,
          finished_at: ts,
          ...released,
        }
      : { status: 'running', ...released },
    events,
  });
  if (result.outcome === 'already_decided') throw conflict(INTERRUPTED_CALL_NOT_WAITING);
  if (result.outcome === 'run_not_waiting') throw conflict(RUN_NOT_ACTIVE);
  await announce(ctx, run, result.rows);
  if (!stop) await ctx.bus.publish(WAKE_CHANNEL, { run: run.id });
  await runEngineOf(ctx)
    .inbox.resolve('interrupted_call', row.id, {
      status: stop ? 'rejected' : 'approved',
      resolvedBy: caller.id,
      ...(stop ? { reason: INTERRUPTED_CALL_STOPPED } : {}),
    })
    .catch(() => {});
  const stored = await approvals.findApproval(ctx.db, row.id);
  return presentApproval(stored ?? row);
}

/**
 * `interrupted_call` items of the approvals inbox: approve with `edits.answer` (went_through, retry
 * or stop) answers the question as the run's owner, whoever holds the item; reject stops the run.
 */
export const interruptedCallInboxHandler: InboxHandler = {
  async approve(ctx, _actor, approvalId, edits) {
    const parsed = ZAnswerInterruptedCallRequest.safeParse({ answer: edits.answer });
    if (!parsed.success)
      throw new AppError(422, [
        { loc: ['body', 'edits', 'answer'], msg: INTERRUPTED_CALL_ANSWER_REQUIRED, type: 'value_error' },
      ]);
    await answerInterruptedCall(ctx, await approvalOwner(ctx, approvalId), approvalId, parsed.data.answer);
  },
  async reject(ctx, _actor, approvalId) {
    await answerInterruptedCall(ctx, await approvalOwner(ctx, approvalId), approvalId, 'stop');
  },
};
