import { randomUUID } from 'node:crypto';
import { generateText, type JSONValue } from 'ai';
import { citationsNamedIn } from '../../ai/citations.ts';
import { loadWorkspaceSnapshot, type WorkspaceSnapshot } from '../../ai/context/workspace-snapshot.ts';
import type { MeterScope } from '../../ai/metering/meter-scope.ts';
import { resolveModel } from '../../ai/models.ts';
import { nowIso, withTx } from '../../db/index.ts';
import type { StrategicAdviceTable } from '../../db/types.ts';
import type { AppContext } from '../../platform/context.ts';
import { recordActivity } from '../activity/activity.ledger.ts';
import * as repo from './advice.repository.ts';

const SYSTEM = [
  'You are the strategy advisor of an executive. Write concise, actionable strategic advice in markdown.',
  'Start with one line "# <title>" that names the main focus. Ground every statement in the workspace',
  'snapshot below: name the goals at risk with their risk reasons word for word (at_risk_goals), the',
  'lagging KPIs (largest gap first) with their progress against the expected progress and their',
  'forecast, the overdue goals and tasks, and the unassigned work; never call a goal at risk that the',
  'snapshot does not; give numbered recommendations; end',
  'with a "## Sources" list citing records as Goal “title”, KPI “name”, Task “title”, Note “title”.',
  'Do not invent records that are not in the snapshot.',
].join(' ');

/** An earlier step of the flow whose output the advice builds on (e.g. the analyst's review). */
export interface EarlierStep {
  name: string;
  output: string;
}

export function advicePrompt(snapshot: WorkspaceSnapshot, earlier: readonly EarlierStep[] = []): string {
  const notes = earlier
    .filter((s) => s.output.trim() !== '')
    .map((s) => `### ${s.name}\n${s.output.trim()}`)
    .join('\n\n');
  return (
    `Workspace snapshot (JSON):\n${JSON.stringify(snapshot)}\n\n` +
    (notes ? `Earlier steps of this flow:\n\n${notes}\n\n` : '') +
    'Write the strategic advice.'
  );
}

/** What the offline engine gets: the snapshot plus the outputs of the flow's earlier steps. */
export function adviceOfflineData(
  snapshot: WorkspaceSnapshot,
  earlier: readonly EarlierStep[] = [],
): JSONValue {
  const steps = earlier
    .filter((s) => s.output.trim() !== '')
    .map((s) => ({ name: s.name, output: s.output.trim() }));
  return { ...snapshot, earlier_steps: steps } as unknown as JSONValue;
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
 * the user. The one code path of Generate Advice: the run engine's strategic_flow advice step calls
 * it (advice.run-step.ts), and POST /api/flow/run/strategic_flow starts that flow.
 */
export async function generateStrategicAdvice(
  ctx: AppContext,
  userId: string,
  opts: {
    /** Whom the call is metered to: the run's scope, or the signed-in user and organization. */
    meter: MeterScope;
    signal?: AbortSignal;
    runId?: string | null;
    modelId?: string | null;
    /** Outputs of the flow's earlier steps, given to the model with the snapshot. */
    earlier?: readonly EarlierStep[];
  },
): Promise<StrategicAdviceTable> {
  const snapshot = await loadWorkspaceSnapshot(ctx, userId);
  const { model } = resolveModel(ctx, opts.modelId, opts.meter);
  const { text } = await generateText({
    model,
    system: SYSTEM,
    prompt: advicePrompt(snapshot, opts.earlier),
    abortSignal: opts.signal,
    maxRetries: ctx.config.ai.maxRetries,
    providerOptions: {
      // The offline engine reads its data, not the prompt: the review step's output goes there too.
      offline: { task: 'strategic-advice', data: adviceOfflineData(snapshot, opts.earlier) },
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
    // The snapshot's records the advice names: read back through visibleCitations for each reader.
    citations: JSON.stringify(citationsNamedIn(text, snapshot)),
  };
  await withTx(ctx.db, async (trx) => {
    await repo.insertAdvice(trx, row);
    await recordActivity(trx, {
      actorUserId: userId,
      via: opts.runId ? `run:${opts.runId}` : 'ai',
      action: 'advice.created',
      entityType: 'advice',
      entityId: row.id,
      summary: `Wrote the strategic advice "${row.advice_title}"`,
      // What an undo compares with (the content is long and only ever changes with updated_at).
      after: {
        advice_title: row.advice_title,
        feedback: row.feedback,
        organization_id: row.organization_id,
        updated_at: row.updated_at,
      },
      undoable: true,
    });
  });
  return row;
}
