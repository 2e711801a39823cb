import type { AppContext } from '../../platform/context.ts';
import type { ConnectionRow } from './connections.repository.ts';

/** What a kind's sync is given: the claimed row, its opened secret, and the signal that ends it. */
export interface SyncJob {
  ctx: AppContext;
  row: ConnectionRow;
  /** The opened password (CalDAV, IMAP) or ICS address. */
  secret: string;
  /** Aborted at shutdown, when the lease is lost, or when the connection is deleted. */
  signal: AbortSignal;
  /**
   * Records that the connection is in step with its server (status connected, last_synced_at, the new
   * cursor, a notice such as a mail kept without its text); a long-held IMAP session calls it after
   * each batch of new mail.
   */
  synced(state: string | null, notice: string | null): Promise<void>;
  /** Resolves when someone asks for a sync now (or the signal aborts): a waiting session checks again. */
  nudged(): Promise<void>;
}

/** The window of days a calendar is expanded over, around now. */
export function calendarWindow(ctx: AppContext, now = Date.now()): { from: Date; until: Date } {
  const day = 86_400_000;
  const c = ctx.config.connections;
  return {
    from: new Date(now - c.calendarPastDays * day),
    until: new Date(now + c.calendarFutureDays * day),
  };
}
