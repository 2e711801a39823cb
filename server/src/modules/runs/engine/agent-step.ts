import { factoryLabel } from '@cc/contract';
import type { ToolSet } from 'ai';
import type { MeterScope } from '../../../ai/metering/meter-scope.ts';
import { resolveModel } from '../../../ai/models.ts';
import type { CrewTaskData } from '../../../ai/offline/handlers/crew-task.ts';
import { runToolLoop } from '../../../ai/tool-loop.ts';
import { UNTRUSTED_INSTRUCTION, wrapUntrusted } from '../../../ai/untrusted.ts';
import type { AppContext } from '../../../platform/context.ts';
import type { RunAgent, RunStep, StepOutput } from './definition.ts';
import type { NewEvent } from './runs.repository.ts';
import { failedToolCalls } from './tool-failures.ts';

/** Each previous output is cut to this many characters in the prompt (context stays bounded). */
const CONTEXT_CHARS_PER_OUTPUT = 4_000;
const MAX_MODEL_STEPS = 4;

export interface AgentStepInput {
  runName: string;
  position: number;
  step: RunStep;
  inputs: Record<string, string>;
  previous: StepOutput[];
  humanAnswer: string | null;
  tools: ToolSet;
  signal: AbortSignal;
  /** Whom the step's model calls are metered to (the step runner's scope). */
  meter: MeterScope;
  /** Progress events (tool calls and results) as they happen; persisted and published by the caller. */
  onEvents: (events: NewEvent[]) => Promise<void>;
}

export interface AgentStepResult {
  output: string;
  thought: string;
  model: string;
}

function systemPrompt(agent: RunAgent | null): string {
  if (!agent)
    return `You are a capable assistant working on one step of a multi-step run.\n${UNTRUSTED_INSTRUCTION}`;
  return [
    `You are ${agent.name}, ${agent.role}.`,
    `Your goal: ${agent.goal}.`,
    agent.backstory ? `Background: ${agent.backstory}` : '',
    'You work on one task of a crew; the results of the earlier tasks are given. Answer in markdown.',
    UNTRUSTED_INSTRUCTION,
  ]
    .filter(Boolean)
    .join('\n');
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

function userPrompt(i: AgentStepInput): string {
  const parts = [`Task ${i.position + 1}: ${i.step.name}`, i.step.description];
  if (i.step.expected_output) parts.push(`Expected output: ${i.step.expected_output}`);
  const inputs = Object.entries(i.inputs).filter(([, v]) => v.trim() !== '');
  if (inputs.length) parts.push(`Inputs:\n${inputs.map(([k, v]) => `- ${k}: ${v}`).join('\n')}`);
  // The person's answer is the decision this step applies (issue 47 item 2), not a comment.
  if (i.humanAnswer)
    parts.push(
      `The person's decision at this step (apply it to the earlier result; say plainly what you could not apply, starting "I could not apply:"): ${i.humanAnswer}`,
    );
  if (i.previous.length) {
    parts.push(
      // Earlier outputs carry what tools and pages returned: data, never instructions.
      `Results of the previous tasks:\n${i.previous
        .map((p) => wrapUntrusted(`output of the task “${p.name}”`, clip(p.output, CONTEXT_CHARS_PER_OUTPUT)))
        .join('\n\n')}`,
    );
  }
  return parts.join('\n\n');
}

function preview(value: unknown, max = 300): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value ?? null);
  return clip(text ?? '', max);
}

/**
 * Runs one agent step: the agent's model (its llmModel, else the default) with its tools, the
 * previous outputs as context, and the run engine's offline handler when no provider is configured.
 * Aborting `signal` cancels the model call in flight.
 */
export async function runAgentStep(ctx: AppContext, i: AgentStepInput): Promise<AgentStepResult> {
  const resolved = resolveModel(ctx, i.step.agent?.llm_model ?? null, i.meter);
  const data: CrewTaskData = {
    run_name: i.runName,
    position: i.position,
    task: { name: i.step.name, description: i.step.description, expected_output: i.step.expected_output },
    agent: i.step.agent
      ? { name: i.step.agent.name, role: i.step.agent.role, goal: i.step.agent.goal }
      : null,
    inputs: i.inputs,
    previous: i.previous.map((p) => ({ name: p.name, output: clip(p.output, CONTEXT_CHARS_PER_OUTPUT) })),
    human_answer: i.humanAnswer,
    today: new Date().toISOString().slice(0, 10),
  };
  const hasTools = Object.keys(i.tools).length > 0;
  const boundTool =
    hasTools && i.step.tool_id && Object.keys(i.tools).length === 1 ? Object.keys(i.tools)[0] : null;
  // The chat's tool loop, read to its end: each tool result reaches the model wrapped as untrusted data.
  const result = await runToolLoop({
    model: resolved.model,
    system: systemPrompt(i.step.agent),
    messages: [{ role: 'user', content: userPrompt(i) }],
    tools: i.tools,
    maxSteps: MAX_MODEL_STEPS,
    // A bound tool (flow step with a tool) is the one the agent must use first: forced only until it
    // was called, so the next model step can answer with its result (forced on every step, a model
    // could never write the answer and the run failed).
    ...(boundTool
      ? {
          prepareStep: ({ steps }: { steps: { toolCalls: { toolName: string }[] }[] }) =>
            steps.some((st) => st.toolCalls.some((c) => c.toolName === boundTool))
              ? { toolChoice: 'auto' as const }
              : { toolChoice: { type: 'tool' as const, toolName: boundTool } },
        }
      : {}),
    maxRetries: ctx.config.ai.maxRetries,
    abortSignal: i.signal,
    providerOptions: { offline: { task: 'crew-task', data: data as unknown as Record<string, never> } },
    onStepFinish: async (step) => {
      const events: NewEvent[] = [];
      for (const call of step.toolCalls) {
        events.push({
          type: 'tool_call',
          summary: `${i.step.agent?.name ?? 'Agent'} calls ${factoryLabel(call.toolName)}`,
          details: { tool: call.toolName, input: call.input as Record<string, unknown> },
        });
      }
      for (const r of step.toolResults) {
        events.push({
          type: 'tool_result',
          summary: `${factoryLabel(r.toolName)} returned`,
          details: { tool: r.toolName, output: preview(r.output, 2_000) },
        });
      }
      if (events.length) await i.onEvents(events);
    },
  });
  // A tool call that failed fails the step, whatever the model wrote after it (unless it may fail).
  const failures = failedToolCalls(result.steps);
  if (failures.length && !i.step.may_fail) throw new Error(`Step "${i.step.name}": ${failures.join('; ')}`);
  const output = result.text.trim() || '(no output)';
  const toolCount = result.steps.reduce((n, s) => n + s.toolCalls.length, 0);
  const thought =
    result.reasoningText?.trim() ||
    `${i.step.agent?.name ?? 'The agent'} ${toolCount ? `used ${toolCount} tool call(s) and ` : ''}wrote ${
      output.split(/\s+/).length
    } words for “${i.step.name}”.`;
  return { output, thought: clip(thought, 1_000), model: resolved.id };
}
