import type { AppContext } from '../../platform/context.ts';

type Log = (err: unknown, msg: string) => void;

/**
 * Work that runs after the request has answered (AI suggestions, scripted demo replies). Tracked per
 * app so shutdown cancels what has not started and waits for what has, and tests can wait for it.
 */
export class CommsBackground {
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly running = new Set<Promise<void>>();
  private closed = false;
  log: Log = () => {};

  run(name: string, fn: () => Promise<void>): void {
    if (this.closed) return;
    const p: Promise<void> = fn()
      .catch((err) => {
        if (!this.closed) this.log(err, `comms background task failed: ${name}`);
      })
      .finally(() => this.running.delete(p));
    this.running.add(p);
  }

  later(name: string, ms: number, fn: () => Promise<void>): void {
    if (this.closed) return;
    const t = setTimeout(() => {
      this.timers.delete(t);
      this.run(name, fn);
    }, ms);
    this.timers.add(t);
  }

  /** Resolves when nothing is scheduled or running (tests). */
  async idle(): Promise<void> {
    while (this.running.size || this.timers.size) {
      await Promise.allSettled([...this.running]);
      if (this.timers.size) await new Promise((r) => setTimeout(r, 50));
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    await Promise.allSettled([...this.running]);
  }
}

const registry = new WeakMap<AppContext, CommsBackground>();

export function background(ctx: AppContext): CommsBackground {
  let b = registry.get(ctx);
  if (!b) {
    b = new CommsBackground();
    registry.set(ctx, b);
  }
  return b;
}
