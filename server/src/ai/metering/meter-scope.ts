import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Who a model call is made for, and why. Every model call is metered against it (ai/metering/
 * metered-model.ts). A caller may pass it to resolveModel; otherwise the ambient scope applies: the
 * request's signed-in user (set for every authenticated request by app.ts) or the run a worker is
 * advancing (the run engine's step runner). So a call added anywhere is metered without extra code.
 */
export interface MeterScope {
  userId?: string | null;
  organizationId?: string | null;
  /** What the call is for (chat, memory, advice, crew, flow, brief, ...); else derived from the call. */
  feature?: string;
  conversationId?: string | null;
  runId?: string | null;
  /** the agent of a run step (run estimates read its history) */
  agentId?: string | null;
}

const ambient = new AsyncLocalStorage<MeterScope>();

/** Runs `fn` with `scope` over the ambient one (its fields win). */
export function withMeterScope<T>(scope: MeterScope, fn: () => T): T {
  return ambient.run({ ...ambient.getStore(), ...scope }, fn);
}

export function currentMeterScope(): MeterScope | undefined {
  return ambient.getStore();
}

/** The offline engine's task names, which every model call carries, as the features they serve. */
const FEATURE_OF_TASK: Record<string, string> = {
  chat: 'chat',
  'memory-extraction': 'memory',
  'strategic-advice': 'advice',
  'task-suggestions': 'task_suggestions',
  'comms-reply': 'comms_suggestions',
  'crew-task': 'crew',
};

/** The feature of a call: the scope's, else its offline task's (new tasks keep their name), else 'other'. */
export function featureOf(scope: MeterScope, providerOptions: unknown): string {
  if (scope.feature) return scope.feature;
  const task = (providerOptions as { offline?: { task?: unknown } } | undefined)?.offline?.task;
  if (typeof task === 'string' && task) return FEATURE_OF_TASK[task] ?? task.replace(/-/g, '_').slice(0, 40);
  return 'other';
}
