/**
 * Who a model call is made for, and why. Every model call is metered against it (ai/metering/
 * model-meter.ts, AI SDK middleware). resolveModel requires it, and its `userId` and `organizationId`
 * keys are required (null where there truly is no user): so every model call says at compile time
 * whom it is metered to.
 * It is passed explicitly rather than read from an AsyncLocalStorage because on Node 20 the latter turns
 * on V8 promise hooks for the whole process (about 7 % of the server's CPU on a chat turn).
 */
export interface MeterScope {
  userId: string | null;
  organizationId: string | null;
  /** What the call is for (chat, memory, advice, crew, flow, brief, ...); else derived from the call. */
  feature?: string;
  conversationId?: string | null;
  runId?: string | null;
  /** the agent of a run step (run estimates read its history) */
  agentId?: string | null;
}

/** The scope of a signed-in person's request: metered to them and their primary organization. */
export function meterScopeOf(user: { id: string; organization_id: string | null }): MeterScope {
  return { userId: user.id, organizationId: user.organization_id };
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
