import type { AuthUser } from '../../../platform/auth/authenticate.ts';
import type { AppContext } from '../../../platform/context.ts';
import type { RunDefinition } from './definition.ts';
import type { RunEngineRegistry } from './engine-registry.ts';
import { announce } from './events.ts';
import * as repo from './runs.repository.ts';

/** One claimed run being advanced by this worker: what every phase of the executor needs. */
export interface Execution {
  ctx: AppContext;
  engine: RunEngineRegistry;
  /** The run as claimed (its id, kind and conversation do not change while it runs). */
  claimed: repo.RunRow;
  crew: boolean;
  definition: RunDefinition;
  /** The account the run acts as. */
  user: AuthUser;
  /** The lease owner (this worker). */
  owner: string;
  signal: AbortSignal;
}

/** Thrown when the run is no longer this worker's (stopped, taken over): stop quietly. */
export class LostRun extends Error {}

export const now = () => new Date().toISOString();

export function parseJson<T>(text: string | null, fallback: T): T {
  if (!text) return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

/**
 * Writes the run row and its timeline events in one transaction, only while this worker holds the
 * lease and the run is runnable (LostRun otherwise), then announces the events.
 */
export async function commit(
  x: Execution,
  set: Parameters<typeof repo.commitStep>[3],
  events: repo.NewEvent[],
): Promise<void> {
  const rows = await repo.commitStep(x.ctx.db, x.claimed.id, x.owner, { ...set, updated_at: now() }, events);
  if (!rows) throw new LostRun();
  await announce(x.ctx, x.claimed, rows);
}

/** Progress events (step start, tool calls, log lines) committed at once. */
export const progress = (x: Execution, events: repo.NewEvent[]) => commit(x, {}, events);
