import type { MeterScope } from '../../../ai/metering/meter-scope.ts';
import type { AuthUser } from '../../../platform/auth/authenticate.ts';
import type { AppContext } from '../../../platform/context.ts';
import { type Contribution, KindRegistry } from '../../../platform/kind-registry.ts';
import type { RunStep, StepOutput } from './definition.ts';
import type { ApprovalGate } from './approval-gate.ts';
import type { NewEvent, RunRow } from './runs.repository.ts';
import type { RunTool } from './tools.ts';

/**
 * What the engine needs from other modules, as ports: the engine imports no other module, so the
 * app fills these in when it registers the engine (users, factory and conversations own the data).
 */
export interface RunEnginePorts {
  /** The account a run acts as (the user who started it); undefined once it is gone. */
  users: (ctx: AppContext, userId: string) => Promise<AuthUser | undefined>;
  /** The factory tools with these ids; deleted ones are left out. */
  tools: (ctx: AppContext, ids: readonly string[]) => Promise<RunTool[]>;
  /** Writes one line of a run's conversation log (a run started from a chat is followed there). */
  conversationLog: (ctx: AppContext, line: RunLogLine) => Promise<unknown>;
  /** The approvals inbox: a run waiting for a person opens an item there; settling it resolves it. */
  inbox?: InboxPort;
}

/** The inbox items a run opens: a question, a call to approve, an interrupted call to answer. */
export type RunInboxKind = 'run_input' | 'tool_approval' | 'interrupted_call';

export interface InboxPort {
  open(item: {
    kind: RunInboxKind;
    sourceId: string;
    assigneeUserId: string;
    title: string;
    summary: string;
    details: Record<string, unknown>;
    sourceUrl: string;
    runId: string;
  }): Promise<void>;
  resolve(
    kind: RunInboxKind,
    sourceId: string,
    outcome: { status: 'approved' | 'rejected' | 'resolved'; resolvedBy: string | null; reason?: string },
  ): Promise<void>;
}

/** Without an inbox wired in (engine-only tests), nothing is opened or resolved. */
const NO_INBOX: InboxPort = { open: async () => {}, resolve: async () => {} };

/** The inbox port of an app's engine (the no-op one when unwired). */
export function inboxPortOf(ctx: AppContext): InboxPort {
  return registries.get(ctx)?.ports.inbox ?? NO_INBOX;
}

/** The inbox item of a run waiting at a step: one per run and waiting step. */
export const runInputSourceId = (runId: string, position: number) => `${runId}:${position}`;

export interface RunLogLine {
  conversationId: string;
  sender: 'crew';
  text: string;
  crewRunId: string | null;
  flowRunId: string | null;
}

/** One step about to run, as a step handler sees it. */
export interface StepRun {
  ctx: AppContext;
  run: RunRow;
  step: RunStep;
  position: number;
  /** The outputs of the steps before this one. */
  outputs: StepOutput[];
  /** The run's start inputs. */
  inputs: Record<string, string>;
  /** The account the run acts as. */
  user: AuthUser;
  /** Whom the step's model calls are metered to: the run, its user and organization, the step's agent. */
  meter: MeterScope;
  /** Aborted when the run is stopped, its lease is lost or the server shuts down. */
  signal: AbortSignal;
  /** Commits progress events (tool calls, log lines) to the timeline at once. */
  progress: (events: NewEvent[]) => Promise<void>;
  /** Every outbound tool call of the step goes through it (it may pause the run before the call). */
  gate: ApprovalGate;
}

export interface StepResult {
  output: string;
  /** Events committed in the same write as the output (e.g. the agent's thought). */
  events?: NewEvent[];
}

export type StepHandler = (s: StepRun) => Promise<StepResult>;

/** The step kinds of one app's engine; a module adds the kinds it owns (docs/architecture.md, "Registrations"). */
export type RunSteps = KindRegistry<StepHandler>;
export type RunStepContribution = Contribution<StepHandler>;

/** The ports and step kinds of one app's run engine. */
export class RunEngineRegistry {
  readonly steps: RunSteps = new KindRegistry('run step kind');

  constructor(readonly ports: RunEnginePorts) {}

  get inbox(): InboxPort {
    return this.ports.inbox ?? NO_INBOX;
  }

  /** The engine's own step kinds (`builtin-steps.ts`); one handler per kind. */
  registerStepKind(kind: string, handler: StepHandler): void {
    this.steps.register(kind, handler);
  }

  stepHandler(kind: string): StepHandler | undefined {
    return this.steps.get(kind);
  }
}

// Per app (keyed by its context): tests run several apps in one process, each with its own wiring.
const registries = new WeakMap<AppContext, RunEngineRegistry>();

export function createRunEngineRegistry(ctx: AppContext, ports: RunEnginePorts): RunEngineRegistry {
  const registry = new RunEngineRegistry(ports);
  registries.set(ctx, registry);
  return registry;
}

export function runEngineOf(ctx: AppContext): RunEngineRegistry {
  const registry = registries.get(ctx);
  if (!registry) throw new Error('The run engine is not registered in this app');
  return registry;
}
