import {
  APPROVAL_REQUIRED_EVENT,
  CALL_INTERRUPTED_EVENT,
  INTERRUPTED_CALL_ANSWERS,
  INTERRUPTED_CALL_QUESTION,
} from '@cc/contract';
import { callViewOf, presentApproval, runPagePath } from './approval-view.ts';
import type { RunStep, StepOutput } from './definition.ts';
import { runInputSourceId, type StepResult } from './engine-registry.ts';
import { announce } from './events.ts';
import { commit, type Execution, now } from './execution.ts';
import * as repo from './runs.repository.ts';
import type { ToolApprovalRow } from './tool-approvals.repository.ts';

/** What the executor writes after each phase: the run row and its timeline events, one write each. */

const leaseReleased = { lease_owner: null, lease_expires_at: null };

/** A run picked up for the first time (or still `started`) is running from now on. */
export async function markRunning(x: Execution): Promise<void> {
  if (x.claimed.status === 'pending' || x.claimed.status === 'started')
    await commit(x, { status: 'running' }, []);
}

/**
 * The step asks a person first: the run waits (crew: awaiting_human_input, flow: paused) and is let go;
 * the question waits in the person's approvals inbox too (`outputs`: what the answer builds on).
 */
export async function pauseForHuman(
  x: Execution,
  step: RunStep,
  position: number,
  outputs: StepOutput[] = [],
): Promise<void> {
  await commit(
    x,
    { status: x.crew ? 'awaiting_human_input' : 'paused', human_prompt: step.human_prompt, ...leaseReleased },
    [
      {
        type: x.crew ? 'human_prompt' : 'wait_for_human',
        summary: `Waiting for your input: ${step.name}`,
        details: { prompt: step.human_prompt, position },
      },
    ],
  );
  const run = x.claimed;
  try {
    await x.engine.ports.inbox?.open({
      kind: 'run_input',
      sourceId: runInputSourceId(run.id, position),
      runId: run.id,
      assigneeUserId: run.user_id,
      title: `${run.definition_name}: waiting for your input`,
      summary: step.human_prompt ?? '',
      sourceUrl: run.conversation_id ? `/app/conversations/${run.conversation_id}` : '/app/run',
      details: {
        run_id: run.id,
        run_kind: run.kind,
        step: step.name,
        prompt: step.human_prompt,
        answer: '',
        based_on: outputs.at(-1)?.output.slice(0, 2000) ?? null,
      },
    });
  } catch {
    // The run waits whatever happens here: its page and conversation still ask the question.
  }
}

/**
 * A tool call must be approved first: the run waits before it (crew: awaiting_human_input, flow:
 * paused) with the exact call on its timeline, and the runner gets an inbox item. The step runs again
 * once the call is decided; its earlier calls keep their stored decisions.
 */
export async function pauseForApproval(x: Execution, approval: ToolApprovalRow): Promise<void> {
  if (approval.status !== 'pending') return pauseForInterruptedCall(x, approval);
  const call = callViewOf(approval);
  await commit(x, { status: x.crew ? 'awaiting_human_input' : 'paused', ...leaseReleased }, [
    {
      type: APPROVAL_REQUIRED_EVENT,
      summary: `Approval needed: ${call.tool} wants to ${call.method} ${call.url}`,
      details: {
        approval_id: approval.id,
        ...call,
        arguments: presentApproval(approval).arguments,
        gate_reason: approval.gate_reason,
        position: approval.position,
      },
    },
  ]);
  try {
    await x.engine.inbox.open({
      kind: 'tool_approval',
      sourceId: approval.id,
      assigneeUserId: x.claimed.user_id,
      title: `Approve a call of ${call.tool}`,
      summary: `${call.method} ${call.url} (run “${x.claimed.definition_name}”)`,
      details: { approval_id: approval.id, ...call },
      sourceUrl: runPagePath(x.claimed),
      runId: x.claimed.id,
    });
  } catch {
    // The run waits either way and its own page shows the call: a lost inbox item loses no decision.
  }
}

/**
 * An approved call was cut after it was claimed: it is not sent again, and the run does not go on
 * as if nothing happened. It waits (crew: awaiting_human_input, flow: paused) with the question on
 * its timeline and in the runner's inbox; the answer (went through / did not, retry / stop the run)
 * settles the call (runs-approvals.service.ts answerInterruptedCall).
 */
async function pauseForInterruptedCall(x: Execution, approval: ToolApprovalRow): Promise<void> {
  const call = callViewOf(approval);
  const where = `${call.tool}: ${call.method} ${call.url}`;
  await commit(x, { status: x.crew ? 'awaiting_human_input' : 'paused', ...leaseReleased }, [
    {
      type: CALL_INTERRUPTED_EVENT,
      summary: `${INTERRUPTED_CALL_QUESTION} ${where}`,
      details: {
        approval_id: approval.id,
        ...call,
        arguments: presentApproval(approval).arguments,
        question: INTERRUPTED_CALL_QUESTION,
        answers: [...INTERRUPTED_CALL_ANSWERS],
        position: approval.position,
      },
    },
  ]);
  try {
    // Its approval (decided long ago) asks nothing any more: only the question stays in the inbox.
    await x.engine.inbox.resolve('tool_approval', approval.id, { status: 'resolved', resolvedBy: null });
    await x.engine.inbox.open({
      kind: 'interrupted_call',
      sourceId: approval.id,
      assigneeUserId: x.claimed.user_id,
      title: INTERRUPTED_CALL_QUESTION,
      summary: `${where} (run “${x.claimed.definition_name}”)`,
      details: {
        approval_id: approval.id,
        ...call,
        question: INTERRUPTED_CALL_QUESTION,
        answers: [...INTERRUPTED_CALL_ANSWERS],
      },
      sourceUrl: runPagePath(x.claimed),
      runId: x.claimed.id,
    });
  } catch {
    // The run waits either way and its own page asks the question.
  }
}

/** The step's output, its events and the move to the next step: one write, so a restart resumes after it. */
export async function recordOutput(
  x: Execution,
  step: RunStep,
  position: number,
  outputs: StepOutput[],
  result: StepResult,
): Promise<void> {
  const next = [...outputs, { position, name: step.name, output: result.output }];
  await commit(
    x,
    { outputs: JSON.stringify(next), current_step: position + 1, human_answer: null, human_prompt: null },
    [
      ...(result.events ?? []),
      {
        type: x.crew ? 'task_output' : 'step_output',
        summary: `${x.crew ? 'Task' : 'Step'} ${position + 1} completed: ${step.name}`,
        details: { position, name: step.name, output: result.output },
      },
    ],
  );
}

/** No step left: the last output is the run's result. */
export async function completeRun(x: Execution, outputs: StepOutput[]): Promise<void> {
  const result = outputs.at(-1)?.output ?? '';
  const name = x.claimed.definition_name;
  const events: repo.NewEvent[] = x.crew
    ? [{ type: 'crew_end', summary: `Crew "${name}" completed`, details: { result } }]
    : [
        { type: 'result', summary: `Flow "${name}" result`, details: { result } },
        { type: 'terminal', summary: `Flow "${name}" completed`, details: null },
      ];
  await commit(
    x,
    { status: 'completed', result, finished_at: now(), ...leaseReleased, human_prompt: null },
    events,
  );
}

/** A step failed: the run ends failed with the reason on its timeline (nothing to do once it is not ours). */
export async function failRun(x: Execution, message: string): Promise<void> {
  const rows = await repo.commitStep(
    x.ctx.db,
    x.claimed.id,
    x.owner,
    { status: 'failed', error: message, finished_at: now(), ...leaseReleased },
    [
      x.crew
        ? { type: 'crew_error', summary: `Crew failed: ${message}`, details: { error: message } }
        : { type: 'terminal', summary: `Flow failed: ${message}`, details: { error: message } },
    ],
  );
  if (rows) await announce(x.ctx, x.claimed, rows);
}
