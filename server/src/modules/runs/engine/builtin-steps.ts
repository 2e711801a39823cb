import { runAgentStep } from './agent-step.ts';
import { toolCallFailure } from './tool-failures.ts';
import type { RunEngineRegistry, StepHandler, StepRun } from './engine-registry.ts';
import { type RunTool, toolsFor } from './tools.ts';

/** The step kinds the engine runs itself: agent, tool and wait_for_human (others are registered by their modules). */
export function registerBuiltinSteps(engine: RunEngineRegistry): void {
  const { tools } = engine.ports;

  /** The person's answer (stored on the run when it was continued) is the step's output. */
  const waitForHuman: StepHandler = async (s) => ({ output: s.run.human_answer ?? '' });

  /** Calls the step's tool directly with the run's inputs (and the person's answer). */
  const toolStep: StepHandler = async (s) => {
    const [row] = s.step.tool_id ? await tools(s.ctx, [s.step.tool_id]) : [];
    if (!row) throw new Error(`The tool of step "${s.step.name}" no longer exists`);
    const input = { ...s.inputs, ...(s.run.human_answer ? { answer: s.run.human_answer } : {}) };
    await s.progress([
      { type: 'tool_call', summary: `Calling ${row.name}`, details: { tool: row.name, input } },
    ]);
    const result =
      row.kind === 'http'
        ? await s.gate.call(row, input, s.signal, false)
        : row.kind === 'mcp'
          ? { error: 'An MCP server offers several tools: give it to an agent step, which chooses one.' }
          : await callBuiltin(s, row.function_name ?? '', input);
    await s.progress([
      {
        type: 'tool_result',
        summary: result.error ? `${row.name} failed: ${result.error}` : `${row.name} returned`,
        details: { tool: row.name, ...result },
      },
    ]);
    // A failed call fails the step (and the run) unless the flow says this step may fail.
    const failure = toolCallFailure(row.name, result);
    if (failure && !s.step.may_fail) throw new Error(`Step "${s.step.name}": ${failure}`);
    return { output: result.error ? `Tool error: ${result.error}` : (result.body ?? '') };
  };

  /** The step's agent with its tools (or only the step's bound tool), the earlier outputs as context. */
  const agentStep: StepHandler = async (s) => {
    const toolIds = s.step.tool_id ? [s.step.tool_id] : (s.step.agent?.tool_ids ?? []);
    const r = await runAgentStep(s.ctx, {
      runName: s.run.definition_name,
      position: s.position,
      step: s.step,
      inputs: s.inputs,
      previous: s.outputs,
      humanAnswer: s.run.human_answer,
      tools: await toolsFor(s.ctx, s.user, await tools(s.ctx, toolIds), s.run.id, s.gate.call),
      signal: s.signal,
      meter: s.meter,
      onEvents: s.progress,
    });
    // The thought summary is committed with the output: one write per finished step.
    return {
      output: r.output,
      events: [{ type: 'thought', summary: r.thought, details: { text: r.thought, model: r.model } }],
    };
  };

  engine.registerStepKind('wait_for_human', waitForHuman);
  engine.registerStepKind('tool', toolStep);
  engine.registerStepKind('agent', agentStep);
}

/** A built-in tool called directly (tool step): the same implementation the agents get. */
async function callBuiltin(
  s: StepRun,
  name: string,
  input: Record<string, unknown>,
): Promise<{ body?: string; error?: string }> {
  const row: RunTool = {
    id: name,
    name,
    description: null,
    kind: 'builtin',
    function_name: name,
    http_url: null,
    http_method: null,
    input_schema: '{}',
    requires_approval: 0,
    created_by: null,
    is_auto_gen: 1,
  };
  const t = (await toolsFor(s.ctx, s.user, [row], s.run.id))[name];
  if (!t?.execute) return { error: `Tool ${name} is not available` };
  const out = await t.execute(input, { toolCallId: `run-${s.run.id}`, messages: [], abortSignal: s.signal });
  return { body: typeof out === 'string' ? out : JSON.stringify(out) };
}
