import type { MeterScope } from '../../../ai/metering/meter-scope.ts';
import type { ApprovalGate } from './approval-gate.ts';
import type { RunStep, StepOutput } from './definition.ts';
import type { StepResult } from './engine-registry.ts';
import { type Execution, parseJson, progress } from './execution.ts';
import type { RunRow } from './runs.repository.ts';

/**
 * Runs one step through the handler registered for its kind, after its start event. A kind no
 * module registered (a definition from a newer or differently wired server) fails the run with a
 * reason instead of guessing.
 */
export async function runStep(
  x: Execution,
  run: RunRow,
  step: RunStep,
  position: number,
  outputs: StepOutput[],
  gate: ApprovalGate,
  signal: AbortSignal,
): Promise<StepResult> {
  const handler = x.engine.stepHandler(step.kind);
  if (!handler)
    throw new Error(`Step "${step.name}" has the kind "${step.kind}", which this server cannot run`);
  const noun = x.crew ? 'Task' : 'Step';
  await progress(x, [
    {
      type: x.crew ? 'task_start' : 'step_start',
      summary: `${noun} ${position + 1}/${x.definition.steps.length} started: ${step.name}${
        step.agent ? ` (${step.agent.name})` : ''
      }`,
      details: { position, name: step.name, agent: step.agent?.name ?? null },
    },
  ]);
  // Every model call of the step is metered to the run and the account it acts as (ai/metering).
  const meter: MeterScope = {
    userId: run.user_id,
    organizationId: x.user.organization_id,
    feature: x.crew ? 'crew' : 'flow',
    runId: run.id,
    agentId: step.agent?.id ?? null,
  };
  return handler({
    ctx: x.ctx,
    run,
    step,
    position,
    outputs,
    inputs: parseJson<Record<string, string>>(run.inputs, {}),
    user: x.user,
    meter,
    signal,
    progress: (events) => progress(x, events),
    gate,
  });
}
