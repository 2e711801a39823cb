import { randomUUID } from 'node:crypto';
import {
  ADVICE_GENERATION_STARTED,
  type TAdviceGeneration,
  type TAdviceGenerationStatus,
  type ZStrategicFlowRequest,
} from '@cc/contract';
import { generateText, type JSONValue } from 'ai';
import type { z } from 'zod';
import { loadWorkspaceSnapshot, type WorkspaceSnapshot } from '../../ai/context/workspace-snapshot.ts';
import { resolveModel } from '../../ai/models.ts';
import { nowIso } from '../../db/index.ts';
import type { AdviceGenerationsTable, StrategicAdviceTable } from '../../db/types.ts';
import type { AuthUser } from '../../platform/auth/authenticate.ts';
import type { AppContext } from '../../platform/context.ts';
import { forbidden, notFound } from '../../platform/errors.ts';
import * as genRepo from './advice-generation.repository.ts';
import * as repo from './advice.repository.ts';

/** Where the web hears that a user's advice landed (write first, then publish). */
export const userChannel = (userId: string) => `user:${userId}`;

/** A run that has not ended after this long died with its server (no worker resumes it). */
const STALE_RUN_MS = 10 * 60_000;
const STALE_RUN_ERROR = 'Advice generation was interrupted. Please try again.';

const SYSTEM = [
  'You are the strategy advisor of an executive. Write concise, actionable strategic advice in markdown.',
  'Start with one line "# <title>" that names the main focus. Ground every statement in the workspace',
  'snapshot below: name the lagging KPIs (largest gap first) with their progress against the expected',
  'progress, the overdue goals and tasks, and the unassigned work; give numbered recommendations; end',
  'with a "## Sources" list citing records as Goal “title”, KPI “name”, Task “title”, Note “title”.',
  'Do not invent records that are not in the snapshot.',
].join(' ');

export function advicePrompt(snapshot: WorkspaceSnapshot): string {
  return `Workspace snapshot (JSON):\n${JSON.stringify(snapshot)}\n\nWrite the strategic advice.`;
}

/** "# Title\n\nbody" → title and body; without a heading the title is the first line, cut. */
export function splitTitle(text: string): { title: string; content: string } {
  const trimmed = text.trim();
  const m = /^#{1,3}\s+(.+)\n?/.exec(trimmed);
  if (m) {
    const content = trimmed.slice(m[0].length).trim();
    return { title: m[1].trim().slice(0, 300), content: content || trimmed };
  }
  return {
    title: (trimmed.split('\n')[0] ?? '').replace(/[*_#]/g, '').trim().slice(0, 120),
    content: trimmed,
  };
}

/**
 * Generate Advice: reads the user's workspace snapshot, asks the model (the offline engine when no
 * provider is configured: handler `strategic-advice`) and writes a strategic advice record owned by
 * the user. Independent of HTTP: the advice route runs it in the background, and the run engine's
 * strategic_flow calls this same function.
 */
export async function generateStrategicAdvice(
  ctx: AppContext,
  userId: string,
  opts: { signal?: AbortSignal; runId?: string | null; modelId?: string | null } = {},
): Promise<StrategicAdviceTable> {
  const snapshot = await loadWorkspaceSnapshot(ctx, userId);
  const { model } = resolveModel(ctx, opts.modelId);
  const { text } = await generateText({
    model,
    system: SYSTEM,
    prompt: advicePrompt(snapshot),
    abortSignal: opts.signal,
    maxRetries: 2,
    providerOptions: {
      offline: { task: 'strategic-advice', data: snapshot as unknown as JSONValue },
    },
  });
  const { title, content } = splitTitle(text);
  if (!content) throw new Error('The model returned no advice.');
  opts.signal?.throwIfAborted();
  const now = nowIso();
  const row: StrategicAdviceTable = {
    id: randomUUID(),
    user_id: userId,
    organization_id: null,
    advice_title: title || 'Strategic advice',
    content,
    feedback: null,
    crew_run_id: opts.runId ?? null,
    created_at: now,
    updated_at: now,
  };
  await repo.insertAdvice(ctx.db, row);
  return row;
}

// ---- background runs of Generate Advice ----

interface InFlight {
  controller: AbortController;
  done: Promise<void>;
}
const inFlight = new WeakMap<AppContext, Map<string, InFlight>>();

function effectiveStatus(row: AdviceGenerationsTable): {
  status: TAdviceGenerationStatus;
  error: string | null;
} {
  if (row.status === 'running' && Date.now() - Date.parse(row.created_at) > STALE_RUN_MS) {
    return { status: 'failed', error: STALE_RUN_ERROR };
  }
  return { status: row.status as TAdviceGenerationStatus, error: row.error };
}

function present(row: AdviceGenerationsTable): TAdviceGeneration {
  const { status, error } = effectiveStatus(row);
  const message =
    status === 'running'
      ? ADVICE_GENERATION_STARTED
      : status === 'completed'
        ? 'Advice generated'
        : (error ?? 'Advice generation failed');
  return {
    id: row.id,
    flow_run_id: row.id,
    flow: 'strategic_flow',
    status,
    user_id: row.user_id,
    advice_id: row.advice_id,
    error,
    message,
    created_at: row.created_at,
    finished_at: row.finished_at,
  };
}

async function runInBackground(ctx: AppContext, runId: string, userId: string, signal: AbortSignal) {
  let set: Parameters<typeof genRepo.finishGeneration>[2];
  try {
    const advice = await generateStrategicAdvice(ctx, userId, { signal, runId });
    set = { status: 'completed', advice_id: advice.id, error: null, finished_at: nowIso() };
  } catch (err) {
    const reason = signal.aborted ? 'Advice generation was stopped.' : (err as Error)?.message;
    set = {
      status: 'failed',
      advice_id: null,
      error: (reason || 'Advice generation failed').slice(0, 500),
      finished_at: nowIso(),
    };
  }
  try {
    await genRepo.finishGeneration(ctx.db, runId, set);
    await ctx.bus.publish(userChannel(userId), {
      kind: 'advice',
      run_id: runId,
      status: set.status,
      advice_id: set.advice_id,
    });
  } catch {
    // The database or bus closed under a server shutdown; the run reads as interrupted later.
  }
}

/**
 * POST /api/flow/run/strategic_flow: records a running generation and starts it in the background.
 * `inputs.user_id` must be the caller (an admin may name any existing user).
 */
export async function startAdviceGeneration(
  ctx: AppContext,
  caller: AuthUser,
  body: z.output<typeof ZStrategicFlowRequest>,
): Promise<TAdviceGeneration> {
  const target = body?.inputs?.user_id || caller.id;
  if (target !== caller.id) {
    if (caller.user_level !== 'admin') throw forbidden('You can only generate advice for yourself.');
    const exists = await ctx.db.selectFrom('users').select('id').where('id', '=', target).executeTakeFirst();
    if (!exists) throw notFound('User not found');
  }
  const row: AdviceGenerationsTable = {
    id: randomUUID(),
    user_id: target,
    requested_by: caller.id,
    status: 'running',
    advice_id: null,
    error: null,
    created_at: nowIso(),
    finished_at: null,
  };
  await genRepo.insertGeneration(ctx.db, row);
  const runs = inFlight.get(ctx) ?? new Map<string, InFlight>();
  inFlight.set(ctx, runs);
  const controller = new AbortController();
  const done = runInBackground(ctx, row.id, target, controller.signal).finally(() => runs.delete(row.id));
  runs.set(row.id, { controller, done });
  return present(row);
}

/** GET /api/flow/runs/{id}: visible to the user it is for and to whoever started it. */
export async function getAdviceGeneration(
  ctx: AppContext,
  caller: AuthUser,
  id: string,
): Promise<TAdviceGeneration> {
  const row = await genRepo.findGeneration(ctx.db, id);
  if (!row || (row.user_id !== caller.id && row.requested_by !== caller.id)) throw notFound('Run not found');
  return present(row);
}

/** Stops the running generations of this app and waits for them (server shutdown, tests). */
export async function drainAdviceGenerations(ctx: AppContext): Promise<void> {
  const runs = [...(inFlight.get(ctx)?.values() ?? [])];
  for (const r of runs) r.controller.abort();
  await Promise.allSettled(runs.map((r) => r.done));
}

/** Waits for the running generations without stopping them (tests). */
export async function settleAdviceGenerations(ctx: AppContext): Promise<void> {
  await Promise.allSettled([...(inFlight.get(ctx)?.values() ?? [])].map((r) => r.done));
}
