import { DEFAULT_RUN_CONFIRM_USD, type TRunEstimate } from '@cc/contract';
import { resolveModel } from '../../ai/models.ts';
import type { AuthUser } from '../../platform/auth/authenticate.ts';
import type { AppContext } from '../../platform/context.ts';
import { crewTasksOf, flowStepsOf } from '../factory/factory.presenter.ts';
import { agentsByIds, crewForRun, flowForRun } from '../factory/factory.service.ts';
import { runConfirmThreshold } from '../users/users.service.ts';
import { dayOf, usageNow } from './usage-clock.ts';
import { costMicros, toUsd } from './usage-money.ts';
import { priceOf } from './usage-prices.service.ts';
import * as repo from './usage.repository.ts';

/** Tokens assumed for a step whose agent has no history here yet (a prompt with context, a page of answer). */
export const DEFAULT_STEP_TOKENS = { input: 2_000, output: 800 };
/** How far back an agent's history counts. */
const HISTORY_DAYS = 90;

interface EstimatedStep {
  agentId: string | null;
  model: string | null;
}

/**
 * What a run is likely to cost: each step that calls a model, at its agent's model price, with the
 * tokens that agent used per run in this workspace (its organization, else the caller) over the last
 * 90 days, or {@link DEFAULT_STEP_TOKENS} without history.
 */
async function estimate(ctx: AppContext, caller: AuthUser, steps: EstimatedStep[]): Promise<TRunEstimate> {
  const agentIds = [...new Set(steps.map((s) => s.agentId).filter((a): a is string => !!a))];
  const since = dayOf(new Date(usageNow(ctx).getTime() - HISTORY_DAYS * 86_400_000));
  const history = new Map(
    (
      await repo.agentHistory(ctx.db, agentIds, since, {
        organizationId: caller.organization_id,
        userId: caller.id,
      })
    ).map((h) => [h.agent_id, h]),
  );
  let micros = 0;
  for (const s of steps) {
    const { id, engine } = resolveModel(
      { config: ctx.config },
      s.model,
      // A config-only context is never metered: only the id and engine are read here.
      { userId: null, organizationId: null },
    );
    const price = await priceOf(ctx, id, engine);
    const h = s.agentId ? history.get(s.agentId) : undefined;
    const runs = Number(h?.runs ?? 0);
    const tokens =
      runs > 0 ? { input: Number(h?.input) / runs, output: Number(h?.output) / runs } : DEFAULT_STEP_TOKENS;
    micros += costMicros(price, Math.ceil(tokens.input), Math.ceil(tokens.output));
  }
  const threshold = (await runConfirmThreshold(ctx, caller.id)) ?? DEFAULT_RUN_CONFIRM_USD;
  const usd = toUsd(micros);
  return {
    estimated_usd: usd,
    steps: steps.length,
    threshold_usd: threshold,
    needs_confirmation: usd > threshold,
  };
}

async function modelsOf(ctx: AppContext, ids: (string | null)[]): Promise<Map<string, string | null>> {
  const rows = await agentsByIds(ctx, [...new Set(ids.filter((i): i is string => !!i))]);
  return new Map(rows.map((a) => [a.id, (a as { llm_model?: string | null }).llm_model ?? null]));
}

/** GET /api/crews/{id}/estimate: every task is a model step (a crew without tasks runs one). */
export async function estimateCrew(ctx: AppContext, caller: AuthUser, crewId: string): Promise<TRunEstimate> {
  const crew = await crewForRun(ctx, caller, crewId);
  const tasks = crewTasksOf(crew);
  const models = await modelsOf(
    ctx,
    tasks.map((t) => t.agent_id),
  );
  const steps = tasks.map((t) => ({
    agentId: t.agent_id,
    model: t.agent_id ? (models.get(t.agent_id) ?? null) : null,
  }));
  return estimate(ctx, caller, steps.length ? steps : [{ agentId: null, model: null }]);
}

/** GET /api/flows/{id}/estimate: its agent and advice steps (tool and human steps call no model). */
export async function estimateFlow(ctx: AppContext, caller: AuthUser, flowId: string): Promise<TRunEstimate> {
  const flow = await flowForRun(ctx, caller, flowId);
  const stored = flowStepsOf(flow).filter((s) => s.kind === 'agent' || s.kind === 'strategic_advice');
  const models = await modelsOf(
    ctx,
    stored.map((s) => s.agent_id),
  );
  return estimate(
    ctx,
    caller,
    stored.map((s) => ({ agentId: s.agent_id, model: s.agent_id ? (models.get(s.agent_id) ?? null) : null })),
  );
}
