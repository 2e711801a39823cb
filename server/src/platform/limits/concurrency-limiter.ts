import type { LimitState } from './limit-state.ts';

/** How long a refused stream is told to wait: streams end at any time, so a short, fixed pause. */
const RETRY_SECONDS = 5;

/** At most `max` things open at once per key (SSE streams per user). */
export class ConcurrencyLimiter {
  private readonly open = new Map<string, number>();

  constructor(readonly max: number) {}

  /** Takes a slot: `release` gives it back (once, however often it is called); null when full. */
  acquire(key: string): { release: (() => void) | null; state: LimitState } {
    const used = this.open.get(key) ?? 0;
    if (used >= this.max) {
      return { release: null, state: { limit: this.max, remaining: 0, resetSeconds: RETRY_SECONDS } };
    }
    this.open.set(key, used + 1);
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      const left = (this.open.get(key) ?? 1) - 1;
      if (left > 0) this.open.set(key, left);
      else this.open.delete(key);
    };
    return {
      release,
      state: { limit: this.max, remaining: this.max - used - 1, resetSeconds: RETRY_SECONDS },
    };
  }

  countOf(key: string): number {
    return this.open.get(key) ?? 0;
  }
}
