import type { LimitClock } from './limit-clock.ts';
import type { LimitState } from './limit-state.ts';

interface Window {
  startedAt: number;
  count: number;
}

/** Keys kept before expired windows are swept (a guard against unbounded growth). */
const SWEEP_AT = 50_000;

/**
 * A fixed-window counter per key (a user id, or an IP without a user): at most `max` calls per
 * window. In process: each server instance counts on its own (docs/decisions/, "Per-user limits").
 */
export class WindowLimiter {
  private readonly windows = new Map<string, Window>();

  constructor(
    readonly max: number,
    readonly windowMs: number,
    private readonly clock: LimitClock,
  ) {}

  /**
   * Counts `cost` calls for `key` (a JSON-RPC batch counts each element); `allowed` is false (and
   * nothing is counted) when they do not all fit in the window.
   */
  take(key: string, cost = 1): { allowed: boolean; state: LimitState } {
    const { window: w, state } = this.current(key);
    const allowed = w.count + cost <= this.max;
    if (allowed) w.count += cost;
    return { allowed, state: { ...state, remaining: this.max - w.count } };
  }

  /** Whether `cost` more calls of `key` fit now, counting nothing (to check several limits first). */
  fits(key: string, cost = 1): boolean {
    return this.current(key).window.count + cost <= this.max;
  }

  private current(key: string): { window: Window; state: LimitState } {
    const now = this.clock.now();
    let w = this.windows.get(key);
    if (!w || now - w.startedAt >= this.windowMs) {
      if (!w && this.windows.size >= SWEEP_AT) this.sweep(now);
      w = { startedAt: now, count: 0 };
      this.windows.set(key, w);
    }
    const resetSeconds = Math.max(1, Math.ceil((w.startedAt + this.windowMs - now) / 1000));
    return { window: w, state: { limit: this.max, remaining: this.max - w.count, resetSeconds } };
  }

  private sweep(now: number): void {
    for (const [k, w] of this.windows) if (now - w.startedAt >= this.windowMs) this.windows.delete(k);
  }
}
