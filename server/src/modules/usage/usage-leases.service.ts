import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import type { AppContext } from '../../platform/context.ts';
import { dayOf, usageNow } from './usage-clock.ts';
import { costMicros } from './usage-money.ts';
import * as reservations from './usage-reservations.repository.ts';
import * as repo from './usage.repository.ts';

/** This process: the owner of the reservations it makes (issue 46 row 10). */
export const SPEND_INSTANCE_ID = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;

/** How a call settled by a sweep is recorded: its instance stopped before the call ended. */
export const INTERRUPTED_OUTCOME = 'interrupted';

const leaseUntil = (ctx: AppContext) => new Date(Date.now() + ctx.config.spend.leaseMs).toISOString();

/**
 * The lease of one call in flight: renewed every third of the lease while the call runs, each time
 * with the tokens used so far, so a sweep after a crash settles what was really spent. One small
 * UPDATE per call every 20 s by default: nothing on the path of a token.
 */
export class SpendLease {
  /** Tokens of the prompt (its estimate, then the model's figure). */
  input: number;
  /** Tokens received so far. */
  output = 0;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly ctx: AppContext,
    private readonly id: string | null,
    inputTokens: number,
  ) {
    this.input = inputTokens;
    if (!id) return;
    this.timer = setInterval(() => void this.renew(), Math.max(50, Math.floor(ctx.config.spend.leaseMs / 3)));
    this.timer.unref();
  }

  private async renew(): Promise<void> {
    if (!this.id) return;
    try {
      const held = await reservations.renewReservation(this.ctx.db, {
        id: this.id,
        owner: SPEND_INSTANCE_ID,
        leaseUntil: leaseUntil(this.ctx),
        inputTokens: this.input,
        outputTokens: this.output,
      });
      // Gone: a sweep settled it while this instance stalled; the call's own settlement then does nothing.
      if (!held) this.stop();
    } catch {
      // A failed renewal (database outage) is retried at the next tick; the lease lasts three of them.
    }
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}

export const newLeaseUntil = leaseUntil;

const SWEEP_BATCH = 100;

/**
 * Settles reservations whose instance is gone: each stale row is taken (deleted) by one instance only,
 * recorded as an `interrupted` usage event with the tokens it had recorded (at least the prompt's
 * estimate) at the price of its call, and its hold becomes that cost on the budget counters. At the
 * start of a single-process (SQLite) server every other instance's row is stale too.
 */
export async function settleStaleReservations(
  ctx: AppContext,
  o: { atStart?: boolean } = {},
): Promise<number> {
  const otherThan = o.atStart && ctx.dialect === 'sqlite' ? SPEND_INSTANCE_ID : undefined;
  let settled = 0;
  for (;;) {
    const now = new Date().toISOString();
    const ids = await reservations.staleReservationIds(ctx.db, { now, otherThan, limit: SWEEP_BATCH });
    for (const id of ids) if (await settleOne(ctx, id, now, otherThan)) settled++;
    if (ids.length < SWEEP_BATCH) return settled;
  }
}

async function settleOne(ctx: AppContext, id: string, now: string, otherThan?: string): Promise<boolean> {
  return ctx.db.transaction().execute(async (trx) => {
    const row = await reservations.takeStaleReservation(trx, { id, now, otherThan });
    if (!row) return false;
    const price = {
      inputPerMillion: Number(row.input_micros_per_million),
      outputPerMillion: Number(row.output_micros_per_million),
    };
    const cost = costMicros(price, row.input_tokens, row.output_tokens);
    const at = usageNow(ctx);
    await repo.insertEvent(trx, {
      id: randomUUID(),
      at: at.toISOString(),
      day: dayOf(at),
      user_id: row.user_id,
      organization_id: row.organization_id,
      model: row.model,
      engine: row.engine,
      feature: row.feature,
      conversation_id: row.conversation_id,
      run_id: row.run_id,
      agent_id: row.agent_id,
      input_tokens: row.input_tokens,
      output_tokens: row.output_tokens,
      cost_micros: cost,
      // Until the owner last renewed the lease: when it was last known to be alive.
      duration_ms: Math.max(
        0,
        Date.parse(row.lease_until) - ctx.config.spend.leaseMs - Date.parse(row.started_at),
      ),
      outcome: INTERRUPTED_OUTCOME,
    });
    const keys = row.scope_keys ? row.scope_keys.split('\n') : [];
    await repo.settleCounters(trx, keys, row.month, Number(row.reserved_micros), cost);
    return true;
  });
}

/** Sweeps stale reservations every half lease until stopped (errors are logged, never thrown). */
export function startStaleReservationSweep(ctx: AppContext, warn: (err: unknown) => void): () => void {
  let running = false;
  const timer = setInterval(
    async () => {
      if (running) return;
      running = true;
      try {
        await settleStaleReservations(ctx);
      } catch (err) {
        warn(err);
      } finally {
        running = false;
      }
    },
    Math.max(50, Math.floor(ctx.config.spend.leaseMs / 2)),
  );
  timer.unref();
  return () => clearInterval(timer);
}
