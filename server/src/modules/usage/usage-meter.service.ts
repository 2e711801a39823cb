import { randomUUID } from 'node:crypto';
import type { AppContext } from '../../platform/context.ts';
import { AppError } from '../../platform/errors.ts';
import { dayOf, monthOf, resetsOn, spokenDay, usageNow } from './usage-clock.ts';
import { dollars, toUsd } from './usage-money.ts';
import * as repo from './usage.repository.ts';

/** Who a model call is for and what made it. */
export interface MeterTarget {
  userId: string | null;
  organizationId: string | null;
  feature: string;
  conversationId: string | null;
  runId: string | null;
  agentId?: string | null;
  model: string;
  engine: string;
}

/** An estimate held on the budget counters of a call's scopes until the call settles. */
export interface Reservation {
  month: string;
  keys: string[];
  micros: number;
}

/** Share of a budget at which administrators are warned (decisions.md, 2026-11-24). */
export const WARN_SHARE = 0.8;
/** The bus channel of 80 % warnings. */
export const USAGE_WARNINGS_CHANNEL = 'usage-warnings';

function scopeKeys(t: Pick<MeterTarget, 'userId' | 'organizationId'>): string[] {
  if (!t.organizationId) return [];
  // The organization first: a refusal names the organization's budget when both are reached.
  return [repo.orgKey(t.organizationId), ...(t.userId ? [repo.memberKey(t.organizationId, t.userId)] : [])];
}

/** The 429 of a refused call, with what was used of which budget and when it resets. */
async function refusal(ctx: AppContext, key: string, month: string): Promise<AppError> {
  const [budget, counter] = await Promise.all([
    repo.findBudget(ctx.db, key),
    repo.findCounter(ctx.db, key, month),
  ]);
  const limit = toUsd(budget?.monthly_micros);
  const used = Math.min(toUsd(counter?.used_micros), limit);
  const resets = resetsOn(usageNow(ctx));
  const retryAfter = Math.max(
    1,
    Math.ceil((Date.parse(`${resets}T00:00:00Z`) - usageNow(ctx).getTime()) / 1000),
  );
  return new AppError(
    429,
    `Monthly AI budget reached: ${dollars(used)} of ${dollars(limit)} used; it resets on ${spokenDay(resets)}.`,
    { 'retry-after': String(retryAfter) },
  );
}

/**
 * Reserves a call's estimated cost on its organization's and its member's counters, in one
 * statement; refuses (AppError 429) when either budget would be exceeded.
 */
export async function reserveSpend(
  ctx: AppContext,
  target: Pick<MeterTarget, 'userId' | 'organizationId'>,
  micros: number,
): Promise<Reservation> {
  const month = monthOf(usageNow(ctx));
  const keys = scopeKeys(target);
  if (keys.length === 0) return { month, keys, micros };
  const refusedKey = await repo.reserveAll(ctx.db, keys, month, micros);
  if (refusedKey) throw await refusal(ctx, refusedKey, month);
  return { month, keys, micros };
}

export interface CallOutcome {
  inputTokens: number;
  outputTokens: number;
  costMicros: number;
  durationMs: number;
  outcome: 'ok' | 'error' | 'aborted';
  at: Date;
}

/**
 * Settles a call: the reservation becomes its real cost on the counters, and the call is recorded
 * (one usage row and the daily roll-up), all in one transaction.
 */
export async function settleSpend(
  ctx: AppContext,
  target: MeterTarget,
  reservation: Reservation,
  o: CallOutcome,
): Promise<void> {
  let settled: { key: string; used: number }[] = [];
  // The counters last, so the transaction holds their rows (every call of an organization settles on
  // the same row) for one round trip, not for the whole transaction.
  await ctx.db.transaction().execute(async (trx) => {
    await repo.insertEvent(trx, {
      id: randomUUID(),
      at: o.at.toISOString(),
      day: dayOf(o.at),
      user_id: target.userId,
      organization_id: target.organizationId,
      model: target.model,
      engine: target.engine,
      feature: target.feature,
      conversation_id: target.conversationId,
      run_id: target.runId,
      agent_id: target.agentId ?? null,
      input_tokens: o.inputTokens,
      output_tokens: o.outputTokens,
      cost_micros: o.costMicros,
      duration_ms: Math.round(o.durationMs),
      outcome: o.outcome,
    });
    settled = await repo.settleCounters(
      trx,
      reservation.keys,
      reservation.month,
      reservation.micros,
      o.costMicros,
    );
  });
  const crossed = o.costMicros > 0 ? settled : [];
  for (const c of crossed) await warnWhenPast80(ctx, c.key, reservation.month, c.used);
}

/** Drops holds a crash left behind (single-process SQLite: nothing is in flight at start). */
export function clearStaleReservations(ctx: AppContext): Promise<void> {
  return repo.clearReservations(ctx.db);
}

/** Gives back a reservation no call used (a turn stopped before its first model call). */
export async function releaseReservation(ctx: AppContext, reservation: Reservation): Promise<void> {
  if (reservation.keys.length === 0) return;
  await repo.settleCounters(ctx.db, reservation.keys, reservation.month, reservation.micros, 0);
}

async function warnWhenPast80(
  ctx: AppContext,
  key: string,
  month: string,
  usedMicros: number,
): Promise<void> {
  const budget = await repo.findBudget(ctx.db, key);
  if (!budget) return;
  const limit = Number(budget.monthly_micros);
  if (usedMicros < limit * WARN_SHARE) return;
  if (!(await repo.markWarned(ctx.db, key, month))) return;
  // Once per scope and month, on the bus (an inbox or a screen may follow it); the usage screens show
  // the same notice from the budgets themselves.
  await ctx.bus
    .publish(USAGE_WARNINGS_CHANNEL, {
      scope_key: key,
      month,
      used_usd: toUsd(usedMicros),
      monthly_usd: toUsd(limit),
    })
    .catch(() => {});
}
