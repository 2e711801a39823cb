import type { AppContext } from '../../../platform/context.ts';
import { parseDefinition, type StepOutput } from './definition.ts';
import { runEngineOf } from './engine-registry.ts';
import { type Execution, LostRun, parseJson } from './execution.ts';
import * as repo from './runs.repository.ts';
import { ApprovalGate } from './approval-gate.ts';
import {
  completeRun,
  failRun,
  markRunning,
  pauseForApproval,
  pauseForHuman,
  recordOutput,
} from './step-outcomes.ts';
import { runStep } from './step-runner.ts';

export interface ExecOptions {
  owner: string;
  signal: AbortSignal;
}

/**
 * Advances one claimed run step by step until it finishes, pauses for a person, or is no longer
 * ours. Each step's output is committed (run row + timeline events, one transaction, guarded by the
 * lease) before the next step starts, so a restart resumes at the first unfinished step.
 */
export async function advanceRun(ctx: AppContext, claimed: repo.RunRow, o: ExecOptions): Promise<void> {
  const x = await prepare(ctx, claimed, o);
  if (!x) return;
  try {
    await markRunning(x);
    while (await advanceOneStep(x)) {
      // Each turn commits one finished step; the loop ends when the run completes, waits or is lost.
    }
  } catch (err) {
    if (err instanceof LostRun || o.signal.aborted) return;
    await failRun(x, err instanceof Error ? err.message : String(err));
  }
}

/** Loads what the run needs besides its row: the account it acts as and its snapshotted definition. */
async function prepare(ctx: AppContext, claimed: repo.RunRow, o: ExecOptions): Promise<Execution | null> {
  const engine = runEngineOf(ctx);
  const user = await engine.ports.users(ctx, claimed.user_id);
  if (!user) return null;
  return {
    ctx,
    engine,
    claimed,
    crew: claimed.kind === 'crew',
    definition: parseDefinition(claimed.definition),
    user,
    owner: o.owner,
    signal: o.signal,
  };
}

/**
 * One turn: re-read the run (still ours and runnable?), pick its next step, then complete the run,
 * pause it for a person, or run the step and record its output. True when there may be a next step.
 */
async function advanceOneStep(x: Execution): Promise<boolean> {
  if (x.signal.aborted) throw new LostRun();
  const run = await stillOurs(x);
  if (!run) return false;
  const outputs = parseJson<StepOutput[]>(run.outputs, []);
  const position = run.current_step;
  const step = x.definition.steps[position];
  if (!step) {
    await completeRun(x, outputs);
    return false;
  }
  if (step.human_prompt && run.human_answer === null) {
    await pauseForHuman(x, step, position, outputs);
    return false;
  }
  // The step's own abort: a tool call that must wait for approval stops the step (and its model call).
  const stepAbort = new AbortController();
  const gate = new ApprovalGate({
    ctx: x.ctx,
    run,
    position,
    foreignItem: x.definition.foreign_item === true,
    abort: stepAbort,
  });
  const signal = AbortSignal.any([x.signal, stepAbort.signal]);
  let result: Awaited<ReturnType<typeof runStep>>;
  try {
    result = await runStep(x, run, step, position, outputs, gate, signal);
  } catch (err) {
    if (gate.pending && !x.signal.aborted) {
      await pauseForApproval(x, gate.pending);
      return false;
    }
    throw err;
  }
  // A model that swallowed the abort still must not go past a call that waits.
  if (gate.pending && !x.signal.aborted) {
    await pauseForApproval(x, gate.pending);
    return false;
  }
  // Stopped or shut down meanwhile: whatever the step returned is not its real output.
  if (x.signal.aborted) throw new LostRun();
  await recordOutput(x, step, position, outputs, result);
  return true;
}

/** The run's current row while this worker still holds it and it is runnable; null otherwise. */
async function stillOurs(x: Execution): Promise<repo.RunRow | null> {
  const run = await repo.findRun(x.ctx.db, x.claimed.id);
  if (!run || run.finished_at || run.lease_owner !== x.owner) return null;
  if (!(repo.RUNNABLE_STATUSES as readonly string[]).includes(run.status)) return null;
  return run;
}
