import { InvalidToolInputError, NoSuchToolError } from 'ai';
import { REJECTED_RESULT_PREFIX } from './approval-gate.ts';

/** Longest error text of one call in a run's failure reason (the timeline has the whole result). */
const REASON_CHARS = 300;

/**
 * Why a tool call failed, or null when it did not (issue 46 row 9). A call the person rejected is a
 * decision, not a failure: the agent gets the reason and the run goes on.
 */
export function toolCallFailure(tool: string, output: unknown): string | null {
  if (!output || typeof output !== 'object') return null;
  const error = (output as { error?: unknown }).error;
  if (typeof error !== 'string' || error === '' || error.startsWith(REJECTED_RESULT_PREFIX)) return null;
  return `${tool} failed: ${error.length > REASON_CHARS ? `${error.slice(0, REASON_CHARS)}…` : error}`;
}

interface StepLike {
  toolResults: readonly { toolName: string; output: unknown }[];
  content: readonly { type: string; toolName?: string; error?: unknown }[];
}

/**
 * The failed calls of an agent's model steps: results that carry an error, and calls whose tool threw.
 * Input the model got wrong (an unknown tool, arguments that do not fit the schema) never left the
 * building: the model is told and may try again, so that alone does not fail the step.
 */
export function failedToolCalls(steps: readonly StepLike[]): string[] {
  const out: string[] = [];
  for (const step of steps) {
    for (const r of step.toolResults) {
      const failure = toolCallFailure(r.toolName, r.output);
      if (failure) out.push(failure);
    }
    for (const part of step.content) {
      if (part.type !== 'tool-error') continue;
      if (InvalidToolInputError.isInstance(part.error) || NoSuchToolError.isInstance(part.error)) continue;
      const message = part.error instanceof Error ? part.error.message : String(part.error);
      out.push(`${part.toolName ?? 'a tool'} failed: ${message.slice(0, REASON_CHARS)}`);
    }
  }
  return out;
}
