import { generateStrategicAdvice } from '../../advice/advice-generation.service.ts';
import { toolsByIds } from '../../factory/factory.service.ts';
import { getUserSummary } from '../../users/users.service.ts';
import type { AuthUser } from '../../../platform/auth/authenticate.ts';
import type { AppContext } from '../../../platform/context.ts';
import { runAgentStep } from './agent-step.ts';
import { parseDefinition, type RunStep, type StepOutput } from './definition.ts';
import { announce } from './events.ts';
import * as repo from './runs.repository.ts';
import { callHttpTool, toolsFor } from './tools.ts';

export interface ExecOptions {
  owner: string;
  signal: AbortSignal;
}

/** Thrown when the run is no longer this worker's (stopped, taken over): stop quietly. */
class LostRun extends Error {}

function parse<T>(text: string | null, fallback: T): T {
  if (!text) return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

const now = () => new Date().toISOString();

/**
 * Advances one claimed run step by step until it finishes, pauses for a person, or is no longer
 * ours. Each step's output is committed (run row + timeline events, one transaction, guarded by the
 * lease) before the next step starts, so a restart resumes at the first unfinished step.
 */
export async function advanceRun(ctx: AppContext, claimed: repo.RunRow, o: ExecOptions): Promise<void> {
  const crew = claimed.kind === 'crew';
  const user = await getUserSummary(ctx, claimed.user_id);
  if (!user) return;
  const def = parseDefinition(claimed.definition);

  const commit = async (set: Parameters<typeof repo.commitStep>[3], events: repo.NewEvent[]) => {
    const rows = await repo.commitStep(ctx.db, claimed.id, o.owner, { ...set, updated_at: now() }, events);
    if (!rows) throw new LostRun();
    await announce(ctx, claimed, rows);
  };
  const progress = async (events: repo.NewEvent[]) => commit({}, events);

  try {
    if (claimed.status === 'pending' || claimed.status === 'started') await commit({ status: 'running' }, []);
    for (;;) {
      if (o.signal.aborted) throw new LostRun();
      const run = await repo.findRun(ctx.db, claimed.id);
      if (!run || run.finished_at || run.lease_owner !== o.owner) return;
      if (!(repo.RUNNABLE_STATUSES as readonly string[]).includes(run.status)) return;
      const outputs = parse<StepOutput[]>(run.outputs, []);
      const position = run.current_step;
      const step = def.steps[position];
      if (!step) {
        await finish(run, outputs);
        return;
      }
      if (step.human_prompt && run.human_answer === null) {
        await commit(
          {
            status: crew ? 'awaiting_human_input' : 'paused',
            human_prompt: step.human_prompt,
            lease_owner: null,
            lease_expires_at: null,
          },
          [
            {
              type: crew ? 'human_prompt' : 'wait_for_human',
              summary: `Waiting for your input: ${step.name}`,
              details: { prompt: step.human_prompt, position },
            },
          ],
        );
        return;
      }
      const { output, thought } = await runStep(run, step, position, outputs, user);
      // Stopped or shut down meanwhile: whatever the step returned is not its real output.
      if (o.signal.aborted) throw new LostRun();
      const next = [...outputs, { position, name: step.name, output }];
      await commit(
        { outputs: JSON.stringify(next), current_step: position + 1, human_answer: null, human_prompt: null },
        [
          ...thought,
          {
            type: crew ? 'task_output' : 'step_output',
            summary: `${crew ? 'Task' : 'Step'} ${position + 1} completed: ${step.name}`,
            details: { position, name: step.name, output },
          },
        ],
      );
    }
  } catch (err) {
    if (err instanceof LostRun || o.signal.aborted) return;
    await fail(err instanceof Error ? err.message : String(err));
  }

  async function runStep(
    run: repo.RunRow,
    step: RunStep,
    position: number,
    outputs: StepOutput[],
    user: AuthUser,
  ): Promise<{ output: string; thought: repo.NewEvent[] }> {
    const plain = (output: string) => ({ output, thought: [] as repo.NewEvent[] });
    const inputs = parse<Record<string, string>>(run.inputs, {});
    await progress([
      {
        type: crew ? 'task_start' : 'step_start',
        summary: `${crew ? 'Task' : 'Step'} ${position + 1}/${def.steps.length} started: ${step.name}${
          step.agent ? ` (${step.agent.name})` : ''
        }`,
        details: { position, name: step.name, agent: step.agent?.name ?? null },
      },
    ]);
    if (step.kind === 'wait_for_human') return plain(run.human_answer ?? '');
    if (step.kind === 'strategic_advice') {
      // Generate Advice has one code path: the advice module's, which writes the advice record.
      const advice = await generateStrategicAdvice(ctx, run.user_id, {
        signal: o.signal,
        runId: run.id,
        modelId: step.agent?.llm_model ?? null,
        earlier: outputs.map((o) => ({ name: o.name, output: o.output })),
      });
      await progress([
        {
          type: 'log',
          summary: `Strategic advice saved: ${advice.advice_title}`,
          details: { advice_id: advice.id },
        },
      ]);
      return plain(`**${advice.advice_title ?? 'Strategic advice'}**\n\n${advice.content}`);
    }
    if (step.kind === 'tool') {
      const [row] = step.tool_id ? await toolsByIds(ctx, [step.tool_id]) : [];
      if (!row) throw new Error(`The tool of step "${step.name}" no longer exists`);
      const input = { ...inputs, ...(run.human_answer ? { answer: run.human_answer } : {}) };
      await progress([
        { type: 'tool_call', summary: `Calling ${row.name}`, details: { tool: row.name, input } },
      ]);
      const result =
        row.kind === 'http'
          ? await callHttpTool(ctx, row, input, o.signal)
          : await callBuiltin(row.function_name ?? '', input, user);
      await progress([
        {
          type: 'tool_result',
          summary: result.error ? `${row.name} failed: ${result.error}` : `${row.name} returned`,
          details: { tool: row.name, ...result },
        },
      ]);
      return plain(result.error ? `Tool error: ${result.error}` : (result.body ?? ''));
    }
    const toolIds = step.tool_id ? [step.tool_id] : (step.agent?.tool_ids ?? []);
    const tools = await toolsFor(ctx, user, await toolsByIds(ctx, toolIds));
    const r = await runAgentStep(ctx, {
      runName: run.definition_name,
      position,
      step,
      inputs,
      previous: outputs,
      humanAnswer: run.human_answer,
      tools,
      signal: o.signal,
      onEvents: progress,
    });
    // The thought summary is committed with the output: one write per finished step.
    return {
      output: r.output,
      thought: [{ type: 'thought', summary: r.thought, details: { text: r.thought, model: r.model } }],
    };
  }

  async function callBuiltin(name: string, input: Record<string, unknown>, user: AuthUser) {
    const set = await toolsFor(ctx, user, [
      {
        id: name,
        builtin_key: null,
        name,
        description: null,
        kind: 'builtin',
        function_name: name,
        http_url: null,
        http_method: null,
        input_schema: '{}',
        is_auto_gen: 1,
        is_public: 0,
        created_by: null,
        created_at: '',
        updated_at: '',
      },
    ]);
    const t = set[name];
    if (!t?.execute) return { error: `Tool ${name} is not available` };
    const out = await t.execute(input, {
      toolCallId: `run-${claimed.id}`,
      messages: [],
      abortSignal: o.signal,
    });
    return { body: typeof out === 'string' ? out : JSON.stringify(out) };
  }

  async function finish(run: repo.RunRow, outputs: StepOutput[]) {
    const result = outputs.at(-1)?.output ?? '';
    const done = {
      status: 'completed',
      result,
      finished_at: now(),
      lease_owner: null,
      lease_expires_at: null,
      human_prompt: null,
    };
    const events: repo.NewEvent[] = crew
      ? [{ type: 'crew_end', summary: `Crew "${run.definition_name}" completed`, details: { result } }]
      : [
          { type: 'result', summary: `Flow "${run.definition_name}" result`, details: { result } },
          { type: 'terminal', summary: `Flow "${run.definition_name}" completed`, details: null },
        ];
    await commit(done, events);
  }

  async function fail(message: string) {
    const rows = await repo.commitStep(
      ctx.db,
      claimed.id,
      o.owner,
      { status: 'failed', error: message, finished_at: now(), lease_owner: null, lease_expires_at: null },
      [
        crew
          ? { type: 'crew_error', summary: `Crew failed: ${message}`, details: { error: message } }
          : { type: 'terminal', summary: `Flow failed: ${message}`, details: { error: message } },
      ],
    );
    if (rows) await announce(ctx, claimed, rows);
  }
}
