import { LimitClock } from '../limits/limit-clock.ts';

/**
 * Per-account brake on password guessing: after `maxFailures` failed checks within the window the
 * account refuses the check (429, the right password too) until the window passes. Used for sign-in
 * and for the current password of `PATCH /api/users/me`. Per-IP limits are @fastify/rate-limit's job.
 * State is per process; with several instances each counts on its own, which still bounds guessing.
 */
export class LoginGuard {
  private readonly failures = new Map<string, number[]>();

  constructor(
    readonly maxFailures: number,
    readonly windowMs = 15 * 60 * 1000,
    private readonly clock: LimitClock = new LimitClock(),
  ) {}

  private recent(key: string, now: number): number[] {
    const list = (this.failures.get(key) ?? []).filter((t) => now - t < this.windowMs);
    if (list.length) this.failures.set(key, list);
    else this.failures.delete(key);
    return list;
  }

  isLocked(key: string): boolean {
    return this.recent(key, this.clock.now()).length >= this.maxFailures;
  }

  /** Seconds until a locked key may try again (when the failure that tipped it over ages out). */
  retryAfterSeconds(key: string): number {
    const now = this.clock.now();
    const list = this.recent(key, now);
    if (list.length < this.maxFailures) return 0;
    const freesAt = list[list.length - this.maxFailures] + this.windowMs;
    return Math.max(1, Math.ceil((freesAt - now) / 1000));
  }

  fail(key: string): void {
    const list = this.recent(key, this.clock.now());
    list.push(this.clock.now());
    this.failures.set(key, list);
    if (this.failures.size > 100_000) this.failures.delete(this.failures.keys().next().value as string);
  }

  succeed(key: string): void {
    this.failures.delete(key);
  }
}
