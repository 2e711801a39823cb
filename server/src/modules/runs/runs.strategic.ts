import {
  ADVICE_GENERATION_PAUSED,
  ADVICE_GENERATION_STARTED,
  ADVICE_GENERATION_STATUSES,
  STRATEGIC_FLOW_NAME,
  type TAdviceGeneration,
  type TAdviceGenerationStatus,
  type ZStrategicFlowRequest,
} from '@cc/contract';
import type { z } from 'zod';
import * as repo from './engine/runs.repository.ts';
import type { AuthUser } from '../../platform/auth/authenticate.ts';
import type { AppContext } from '../../platform/context.ts';
import { ownedBy } from '../../platform/access.ts';
import { forbidden } from '../../platform/errors.ts';
import { startFlowRun } from './runs.service.ts';

/**
 * Generate Advice on the run engine (one code path): POST /api/flow/run/strategic_flow starts the
 * built-in `strategic_flow` as an ordinary flow run, and GET /api/flow/runs/{id} reads it back, both in
 * the advice contract's shape (ZAdviceGeneration) so the dashboard keeps working unchanged.
 */
export async function startStrategicFlowRun(
  ctx: AppContext,
  caller: AuthUser,
  body: z.output<typeof ZStrategicFlowRequest>,
): Promise<TAdviceGeneration> {
  const target = body?.inputs?.user_id;
  if (target && target !== caller.id) throw forbidden('You can only generate advice for yourself.');
  const started = await startFlowRun(ctx, caller, { flow_id: STRATEGIC_FLOW_NAME, inputs: {} }, null);
  return getStrategicFlowRun(ctx, caller, started.flow_run_id);
}

const MESSAGES: Partial<Record<TAdviceGenerationStatus, string>> = {
  running: ADVICE_GENERATION_STARTED,
  paused: ADVICE_GENERATION_PAUSED,
  completed: 'Advice generated',
};

export async function getStrategicFlowRun(
  ctx: AppContext,
  caller: AuthUser,
  id: string,
): Promise<TAdviceGeneration> {
  const found = await repo.findRun(ctx.db, id);
  const run = ownedBy(found?.kind === 'flow' ? found : undefined, caller.id, 'Run not found');
  // The advice step logs the record it wrote; its id is the run's advice_id.
  const events = await repo.eventsAfter(ctx.db, id, 0, 500);
  let adviceId: string | null = null;
  for (const e of events) {
    if (e.type !== 'log' || !e.details) continue;
    const d = JSON.parse(e.details) as { advice_id?: string };
    if (d.advice_id) adviceId = d.advice_id;
  }
  // The run's real status; a row not yet picked up (pending, started) is running as far as callers go.
  const status: TAdviceGenerationStatus = (ADVICE_GENERATION_STATUSES as readonly string[]).includes(
    run.status,
  )
    ? (run.status as TAdviceGenerationStatus)
    : 'running';
  return {
    id: run.id,
    flow_run_id: run.id,
    flow: 'strategic_flow',
    status,
    user_id: run.user_id,
    advice_id: adviceId,
    error: run.error,
    message: MESSAGES[status] ?? run.error ?? 'Advice generation failed',
    created_at: run.created_at,
    updated_at: run.updated_at,
    finished_at: run.finished_at,
  };
}
