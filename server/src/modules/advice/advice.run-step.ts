import type { RunSteps, StepHandler } from '../runs/engine/engine-registry.ts';
import { generateStrategicAdvice } from './advice-generation.service.ts';

/**
 * The `strategic_advice` step of a flow (the built-in strategic_flow): Generate Advice has one code
 * path, this module's, which writes the advice record; the step logs its id and outputs the advice.
 */
export const strategicAdviceStep: StepHandler = async (s) => {
  const advice = await generateStrategicAdvice(s.ctx, s.run.user_id, {
    // The run's scope (its user's organization, the step's agent), as the advice feature.
    meter: { ...s.meter, feature: 'advice' },
    signal: s.signal,
    runId: s.run.id,
    modelId: s.step.agent?.llm_model ?? null,
    earlier: s.outputs.map((o) => ({ name: o.name, output: o.output })),
  });
  await s.progress([
    {
      type: 'log',
      summary: `Strategic advice saved: ${advice.advice_title}`,
      details: { advice_id: advice.id },
    },
  ]);
  return { output: `**${advice.advice_title ?? 'Strategic advice'}**\n\n${advice.content}` };
};

export function registerAdviceRunSteps(steps: RunSteps): void {
  steps.register('strategic_advice', strategicAdviceStep);
}
