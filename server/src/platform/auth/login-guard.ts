/**
 * Per-account brake on password guessing: after `maxFailures` failed sign-ins within the window the
 * account refuses sign-in (429) until the window passes. Per-IP limits are @fastify/rate-limit's job.
 * State is per process; with several instances each counts on its own, which still bounds guessing.
 */
export class LoginGuard {
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly maxFailures: number,
    private readonly windowMs = 15 * 60 * 1000,
  ) {}

  private recent(key: string, now: number): number[] {
    const list = (this.failures.get(key) ?? []).filter((t) => now - t < this.windowMs);
    if (list.length) this.failures.set(key, list);
    else this.failures.delete(key);
    return list;
  }

  isLocked(key: string, now = Date.now()): boolean {
    return this.recent(key, now).length >= this.maxFailures;
  }

  fail(key: string, now = Date.now()): void {
    const list = this.recent(key, now);
    list.push(now);
    this.failures.set(key, list);
    if (this.failures.size > 100_000) this.failures.delete(this.failures.keys().next().value as string);
  }

  succeed(key: string): void {
    this.failures.delete(key);
  }
}
