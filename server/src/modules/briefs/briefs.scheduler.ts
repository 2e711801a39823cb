import type { AppContext } from '../../platform/context.ts';
import { scheduledBriefUsers } from '../users/users.service.ts';
import * as repo from './briefs.repository.ts';
import { generateBrief } from './briefs.service.ts';
import { latestSlot } from './briefs.slots.ts';

/** A claimed slot whose instance died before its brief was stored may be taken over after this. */
export const SLOT_STALE_MS = 10 * 60_000;
const USERS_PER_PAGE = 200;

/**
 * The durable brief scheduler. Each tick, for every user whose schedule is on, it takes the latest
 * scheduled time that has passed (only the latest: after downtime, one catch-up brief) and claims the
 * (user, slot) row; the instance whose claim wins produces the brief. Several instances on one
 * database therefore produce each scheduled brief once. State is rows, not memory: a restart resumes.
 */
export class BriefScheduler {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<number> | null = null;

  constructor(
    private readonly ctx: AppContext,
    private readonly clock: () => Date = () => new Date(),
    /** Where a user's failed brief is reported (the others are still produced). */
    private readonly report: (err: unknown) => void = () => {},
  ) {}

  /** One pass; resolves with the number of briefs this instance produced. */
  async tick(now: Date = this.clock()): Promise<number> {
    let produced = 0;
    let after = '';
    for (;;) {
      const users = await scheduledBriefUsers(this.ctx, after, USERS_PER_PAGE);
      for (const u of users) {
        if (!u.schedule?.enabled) continue;
        const slot = latestSlot(u.schedule, now, u.since);
        if (!slot) continue;
        try {
          if (await this.produce(u, slot, now)) produced += 1;
        } catch (err) {
          this.report(err);
        }
      }
      if (users.length < USERS_PER_PAGE) return produced;
      after = users[users.length - 1].id;
    }
  }

  private async produce(
    user: { id: string; organization_id: string | null },
    slotAt: string,
    now: Date,
  ): Promise<boolean> {
    const userId = user.id;
    const claimed = await repo.claimSlot(this.ctx.db, {
      userId,
      slotAt,
      now: now.toISOString(),
      staleBefore: new Date(now.getTime() - SLOT_STALE_MS).toISOString(),
    });
    if (!claimed) return false;
    try {
      const brief = await generateBrief(this.ctx, user, { trigger: 'scheduled', now });
      await repo.completeSlot(this.ctx.db, userId, slotAt, brief.id);
      return true;
    } catch (err) {
      // The slot is given back so a later tick tries again; the error is the tick's to report.
      await repo.releaseSlot(this.ctx.db, userId, slotAt).catch(() => {});
      throw err;
    }
  }

  /** Polls every `pollMs` (0: never). A failed tick is reported and the loop goes on. */
  start(pollMs: number): void {
    if (pollMs <= 0 || this.timer) return;
    const loop = () => {
      this.running ??= this.tick()
        .catch((err) => {
          this.report(err);
          return 0;
        })
        .finally(() => {
          this.running = null;
        });
    };
    this.timer = setInterval(loop, pollMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running?.catch(() => {});
  }
}

const schedulers = new WeakMap<AppContext, BriefScheduler>();

export function briefSchedulerOf(ctx: AppContext): BriefScheduler | undefined {
  return schedulers.get(ctx);
}

export function registerBriefScheduler(ctx: AppContext, scheduler: BriefScheduler): void {
  schedulers.set(ctx, scheduler);
}
