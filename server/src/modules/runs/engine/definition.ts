import type { TFlowStepKind } from '@cc/contract';

/** An agent as snapshotted into a run at start (editing or deleting it later does not change the run). */
export interface RunAgent {
  id: string;
  name: string;
  role: string;
  goal: string;
  backstory: string | null;
  llm_model: string | null;
  tool_ids: string[];
}

/**
 * One step of a run. Crew tasks are `agent` steps (with `human_input` when a person answers first);
 * flow steps keep their kind.
 */
export interface RunStep {
  name: string;
  kind: TFlowStepKind;
  description: string;
  expected_output: string | null;
  /** Asks a person before the step runs (crew tasks with human input, flow wait_for_human steps). */
  human_prompt: string | null;
  agent: RunAgent | null;
  /** A flow step bound to one tool: the agent may only use it (agent step) or it is called directly (tool step). */
  tool_id: string | null;
  /**
   * A failed tool call of the step does not fail the run (flows say so per step; crew tasks never):
   * the step's output says the call failed and the run goes on.
   */
  may_fail?: boolean;
}

export interface RunDefinition {
  steps: RunStep[];
  /**
   * The crew or flow, or one of its agents, is not the runner's own (nor the built-in catalogue's):
   * each destination its tools call needs the runner's approval in the run (issue 19 section 1).
   */
  foreign_item?: boolean;
}

export interface StepOutput {
  position: number;
  name: string;
  output: string;
}

export function parseDefinition(text: string): RunDefinition {
  try {
    const d = JSON.parse(text) as RunDefinition;
    return Array.isArray(d?.steps) ? d : { steps: [] };
  } catch {
    return { steps: [] };
  }
}
