import { randomUUID } from 'node:crypto';
import type { AppContext } from '../../../platform/context.ts';
import { runChannel, WAKE_CHANNEL } from './events.ts';
import { advanceRun } from './executor.ts';
import * as repo from './runs.repository.ts';

interface Executing {
  controller: AbortController;
  done: Promise<void>;
}

export interface WorkerOptions {
  leaseMs: number;
  concurrency: number;
  pollMs: number;
  log?: (obj: Record<string, unknown>, msg: string) => void;
}

/**
 * The run worker of one server instance: claims runnable runs with a lease (several instances on one
 * PostgreSQL database share the work), executes each in its own task with an AbortController, renews
 * the lease while working, and gives runs back on shutdown so the next instance resumes them.
 */
export class RunWorker {
  readonly owner = `worker-${randomUUID()}`;
  private readonly executing = new Map<string, Executing>();
  private stopped = false;
  private claiming = false;
  private again = false;
  private timer: NodeJS.Timeout | null = null;
  private unsubscribe: (() => void) | null = null;

  constructor(
    private readonly ctx: AppContext,
    private readonly opts: WorkerOptions,
  ) {}

  start(): void {
    if (this.opts.concurrency <= 0) return;
    this.unsubscribe = this.ctx.bus.subscribe(WAKE_CHANNEL, () => this.kick());
    this.timer = setInterval(() => this.kick(), this.opts.pollMs);
    this.timer.unref();
    this.kick();
  }

  /** Runs executing here (for tests and the bench). */
  get active(): number {
    return this.executing.size;
  }

  /** Aborts the step in flight of a run executing on this instance (stop). */
  abort(runId: string, reason = 'stopped'): void {
    this.executing.get(runId)?.controller.abort(new Error(reason));
  }

  /** Claims runs until the concurrency limit or no runnable run is left; one claim loop at a time. */
  kick(): void {
    if (this.stopped) return;
    if (this.claiming) {
      this.again = true;
      return;
    }
    this.claiming = true;
    void (async () => {
      try {
        do {
          this.again = false;
          while (!this.stopped && this.executing.size < this.opts.concurrency) {
            const run = await repo.claimRun(
              this.ctx.db,
              this.ctx.dialect,
              this.owner,
              new Date(),
              this.opts.leaseMs,
            );
            if (!run) break;
            this.execute(run);
          }
        } while (this.again && !this.stopped);
      } catch (err) {
        this.opts.log?.({ err }, 'run worker: claim failed');
      } finally {
        this.claiming = false;
      }
    })();
  }

  private execute(run: repo.RunRow): void {
    const controller = new AbortController();
    const unsubscribe = this.ctx.bus.subscribe(runChannel(run.id), (p) => {
      if (p.kind === 'stop') controller.abort(new Error('stopped'));
    });
    const renewEvery = Math.max(250, Math.floor(this.opts.leaseMs / 3));
    const renewal = setInterval(() => {
      const until = new Date(Date.now() + this.opts.leaseMs).toISOString();
      repo
        .renewLease(this.ctx.db, run.id, this.owner, until)
        .then((ok) => {
          // Stopped or finished elsewhere, or taken over after a stall: abandon the step in flight.
          if (!ok) controller.abort(new Error('lease lost'));
        })
        .catch(() => {});
    }, renewEvery);
    renewal.unref();

    const done = (async () => {
      try {
        await advanceRun(this.ctx, run, {
          owner: this.owner,
          signal: controller.signal,
        });
      } catch (err) {
        this.opts.log?.({ err, runId: run.id }, 'run worker: run failed unexpectedly');
      } finally {
        clearInterval(renewal);
        unsubscribe();
        // Whatever is left unfinished (shutdown, error) is given back for another worker to resume.
        await repo.releaseLease(this.ctx.db, run.id, this.owner).catch(() => {});
        this.executing.delete(run.id);
        if (!this.stopped) this.kick();
      }
    })();
    this.executing.set(run.id, { controller, done });
  }

  /** Shutdown: no new claims; abort the steps in flight and give their runs back (unfinished). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.unsubscribe?.();
    const all = [...this.executing.values()];
    for (const e of all) e.controller.abort(new Error('shutdown'));
    await Promise.allSettled(all.map((e) => e.done));
  }
}
