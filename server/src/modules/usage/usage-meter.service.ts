import { randomUUID } from 'node:crypto';
import type { AppContext } from '../../platform/context.ts';
import { AppError } from '../../platform/errors.ts';
import { dayOf, monthOf, resetsOn, spokenDay, usageNow } from './usage-clock.ts';
import { newLeaseUntil, SPEND_INSTANCE_ID } from './usage-leases.service.ts';
import { dollars, toUsd } from './usage-money.ts';
import type { Price } from './usage-prices.service.ts';
import { insertReservation, takeReservation } from './usage-reservations.repository.ts';
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
  /** The call's row in usage_reservations (its lease), or null when none was made. */
  id: string | null;
  month: string;
  keys: string[];
  micros: number;
}

/** Share of a budget at which administrators are warned (decisions/, 2026-11-24). */
export const WARN_SHARE = 0.8;
/** The bus channel of 80 % warnings. */
export const USAGE_WARNINGS_CHANNEL = 'usage-warnings';

function scopeKeys(t: Pick<MeterTarget, 'userId' | 'organizationId'>): string[] {
  if (!t.organizationId) return [];
  // The organization first: a refusal names the organization's budget when both are reached.
  return [repo.orgKey(t.organizationId), ...(t.userId ? [repo.memberKey(t.organizationId, t.userId)] : [])];
}

/** True when a budget applies to a call of this scope (its organization's or its member's). */
export function budgetApplies(
  ctx: AppContext,
  target: Pick<MeterTarget, 'userId' | 'organizationId'>,
): Promise<boolean> {
  return repo.anyBudget(ctx.db, scopeKeys(target));
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

/** What a leased reservation records of its call, so a sweep can settle it after a crash. */
export interface CallLease {
  call: MeterTarget;
  price: Price;
  /** the prompt's estimate */
  inputTokens: number;
}

/**
 * Reserves a call's estimated cost on its organization's and its member's counters, in one
 * statement; refuses (AppError 429) when either budget would be exceeded. With `lease`, the call
 * also gets its row in usage_reservations, owned by this instance under a lease (usage-leases.service.ts).
 */
export async function reserveSpend(
  ctx: AppContext,
  target: Pick<MeterTarget, 'userId' | 'organizationId'>,
  micros: number,
  lease?: CallLease,
): Promise<Reservation> {
  const month = monthOf(usageNow(ctx));
  const keys = scopeKeys(target);
  if (keys.length > 0) {
    const refusedKey = await repo.reserveAll(ctx.db, keys, month, micros);
    if (refusedKey) throw await refusal(ctx, refusedKey, month);
  }
  if (!lease) return { id: null, month, keys, micros };
  const id = randomUUID();
  const c = lease.call;
  try {
    await insertReservation(ctx.db, {
      id,
      owner: SPEND_INSTANCE_ID,
      lease_until: newLeaseUntil(ctx),
      month,
      scope_keys: keys.join('\n'),
      reserved_micros: micros,
      user_id: c.userId,
      organization_id: c.organizationId,
      model: c.model,
      engine: c.engine,
      feature: c.feature,
      conversation_id: c.conversationId,
      run_id: c.runId,
      agent_id: c.agentId ?? null,
      input_tokens: lease.inputTokens,
      output_tokens: 0,
      input_micros_per_million: lease.price.inputPerMillion,
      output_micros_per_million: lease.price.outputPerMillion,
      started_at: new Date().toISOString(),
    });
  } catch (err) {
    // No row, no hold: what the counters took is given back before the call is refused.
    await repo.settleCounters(ctx.db, keys, month, micros, 0).catch(() => {});
    throw err;
  }
  return { id, month, keys, micros };
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
    // A row a sweep took already (this instance stalled past its lease) was settled there: once only.
    if (reservation.id && !(await takeReservation(trx, reservation.id))) return;
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

/** Gives back a reservation no call used (a turn stopped before its first model call). */
export async function releaseReservation(ctx: AppContext, reservation: Reservation): Promise<void> {
  if (reservation.id && !(await takeReservation(ctx.db, reservation.id))) return;
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
