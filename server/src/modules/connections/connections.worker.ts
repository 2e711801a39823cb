import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { nowIso } from '../../db/index.ts';
import type { AppContext } from '../../platform/context.ts';
import { openSecret } from '../../platform/secrets/secret-box.ts';
import { ConnectionError, describeFailure } from './connections.outbound.ts';
import * as repo from './connections.repository.ts';
import type { SyncJob } from './connections.sync-types.ts';
import { syncCaldav } from './sync-caldav.ts';
import { syncIcs } from './sync-ics.ts';
import { syncImap } from './sync-imap.ts';

/** Any instance hears "look for due connections" here (a connection added or "sync now" anywhere). */
export const CONNECTIONS_WAKE = 'connections:wake';
/** The instance syncing the connection hears "sync now" here (it may be waiting in IDLE). */
export const nudgeChannel = (id: string) => `connections:nudge:${id}`;

/** Syncs one instance runs at once (an IMAP session waiting in IDLE holds one). */
const CONCURRENCY = 32;
/** How often an instance looks for due connections besides wake-ups. */
const POLL_MS = 5_000;
/** Back-off after failures: 1, 2, 4 … minutes, at most 6 hours. */
const backoffMs = (failures: number) => Math.min(6 * 3_600_000, 60_000 * 2 ** Math.max(0, failures - 1));

/**
 * The connections' sync worker of one instance (docs/decisions/245): claims due connections under a
 * lease in the database (so one instance at a time syncs a connection, on SQLite or several PostgreSQL
 * instances), renews it while working, records the outcome and the next time, and gives the
 * connection back at shutdown. Nothing is kept in memory that a restart would lose: the schedule, the
 * cursor and the lease are columns of the connection.
 */
export class ConnectionSyncWorker {
  readonly owner = `connections-${randomUUID()}`;
  private readonly running = new Map<string, { controller: AbortController; done: Promise<void> }>();
  private stopped = false;
  private claiming = false;
  private again = false;
  private timer: NodeJS.Timeout | null = null;
  private unsubscribe: (() => void) | null = null;

  constructor(
    private readonly ctx: AppContext,
    private readonly log: (obj: Record<string, unknown>, msg: string) => void,
  ) {}

  start(): void {
    this.unsubscribe = this.ctx.bus.subscribe(CONNECTIONS_WAKE, () => this.kick());
    this.timer = setInterval(
      () => this.kick(),
      Math.min(POLL_MS, this.ctx.config.connections.syncIntervalMs),
    );
    this.timer.unref();
    this.kick();
  }

  /** Stops the sync of a connection running here (it was deleted). */
  abort(id: string): Promise<void> {
    const r = this.running.get(id);
    r?.controller.abort(new Error('deleted'));
    return r?.done ?? Promise.resolve();
  }

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
          while (!this.stopped && this.running.size < CONCURRENCY) {
            const row = await repo.claimDueConnection(
              this.ctx.db,
              this.ctx.dialect,
              this.owner,
              new Date(),
              this.ctx.config.connections.leaseMs,
            );
            if (!row) break;
            this.execute(row);
          }
        } while (this.again && !this.stopped);
      } catch (err) {
        this.log({ err }, 'connections worker: claim failed');
      } finally {
        this.claiming = false;
      }
    })();
  }

  private execute(row: repo.ConnectionRow): void {
    const controller = new AbortController();
    const nudges = new EventTarget();
    // "Sync now" wakes a waiting session; a changed or deleted connection ends it (claimed afresh).
    const unsubscribe = this.ctx.bus.subscribe(nudgeChannel(row.id), (p) => {
      if (p.restart) controller.abort(new Error('changed'));
      else nudges.dispatchEvent(new Event('nudge'));
    });
    const leaseMs = this.ctx.config.connections.leaseMs;
    const renewal = setInterval(
      () => {
        const until = new Date(Date.now() + leaseMs).toISOString();
        repo
          .renewLease(this.ctx.db, row.id, this.owner, until)
          .then((ok) => {
            if (!ok) controller.abort(new Error('lease lost'));
          })
          .catch(() => {});
      },
      Math.max(250, Math.floor(leaseMs / 3)),
    );
    renewal.unref();
    const done = this.sync(row, controller.signal, nudges)
      .catch((err) => this.log({ err, connectionId: row.id }, 'connections worker: sync failed unexpectedly'))
      .finally(() => {
        clearInterval(renewal);
        unsubscribe();
        this.running.delete(row.id);
        if (!this.stopped) this.kick();
      });
    this.running.set(row.id, { controller, done });
  }

  private async sync(row: repo.ConnectionRow, signal: AbortSignal, nudges: EventTarget): Promise<void> {
    const { ctx } = this;
    const interval = ctx.config.connections.syncIntervalMs;
    const job: SyncJob = {
      ctx,
      row,
      secret: '',
      signal,
      synced: (state, notice) =>
        repo.updateLeased(ctx.db, row.id, this.owner, {
          status: 'connected',
          last_synced_at: nowIso(),
          last_error: notice,
          sync_state: state,
          failures: 0,
        }),
      nudged: () =>
        new Promise<void>((resolve) => nudges.addEventListener('nudge', () => resolve(), { once: true })),
    };
    try {
      const secret = row.secret_sealed ? openSecret(ctx.config.secretsKey, row.secret_sealed) : null;
      if (secret === null) {
        throw new ConnectionError(
          "The stored credentials can no longer be read (the server's key changed): enter them again.",
        );
      }
      job.secret = secret;
      let idled = false;
      if (row.kind === 'ics') await syncIcs(job);
      else if (row.kind === 'caldav') await syncCaldav(job);
      else idled = (await syncImap(job)).idled;
      await repo.finishSync(ctx.db, row.id, this.owner, {
        status: 'connected',
        // A session that waited in IDLE for the interval reconnects at once: new mail keeps arriving.
        next_sync_at: new Date(Date.now() + (idled ? 0 : interval)).toISOString(),
        updated_at: nowIso(),
      });
    } catch (err) {
      if (!(err instanceof ConnectionError))
        this.log({ err, connectionId: row.id }, 'connections worker: sync failed');
      const failures = row.failures + 1;
      // What was imported stays: only the status, the sentence and the next attempt change.
      await repo.finishSync(ctx.db, row.id, this.owner, {
        status: signal.aborted ? (row.last_synced_at ? 'connected' : 'never_synced') : 'error',
        last_error: signal.aborted ? row.last_error : describeFailure(err, row.host),
        failures: signal.aborted ? row.failures : failures,
        next_sync_at: new Date(Date.now() + (signal.aborted ? 0 : backoffMs(failures))).toISOString(),
        updated_at: nowIso(),
      });
    }
  }

  /** Shutdown: no new claims; stop the syncs in flight and give their connections back. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.unsubscribe?.();
    const all = [...this.running.values()];
    for (const r of all) r.controller.abort(new Error('shutdown'));
    await Promise.allSettled(all.map((r) => r.done));
  }
}

const workers = new WeakMap<AppContext, ConnectionSyncWorker>();

/** The worker of an app (the service stops a deleted connection's sync through it). */
export function connectionWorkerOf(ctx: AppContext): ConnectionSyncWorker | undefined {
  return workers.get(ctx);
}

/** Starts the app's worker when it is ready and stops it (connections given back) before it closes. */
export function registerConnectionWorker(app: FastifyInstance, ctx: AppContext): void {
  const worker = new ConnectionSyncWorker(ctx, (obj, msg) => app.log.warn(obj, msg));
  workers.set(ctx, worker);
  app.addHook('onReady', async () => worker.start());
  app.addHook('preClose', async () => {
    await worker.stop();
  });
}
