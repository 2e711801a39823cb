import type { AppContext } from '../../platform/context.ts';
import { runsAwaitingInputOf } from '../runs/runs.service.ts';
import { pendingSuggestionsOf } from '../task-suggestions/task-suggestions.service.ts';
import type { FactWaiting } from './briefs.facts.ts';

/**
 * "Items waiting" for the person: the one place the brief learns what waits for them. Until the
 * approvals inbox exists this is their runs awaiting an answer and their pending task suggestions;
 * when the inbox lands, point this function at it (the brief needs `{citation, text}` per item).
 */
export async function itemsWaitingFor(
  ctx: AppContext,
  userId: string,
  limit: number,
): Promise<FactWaiting[]> {
  const [runs, suggestions] = await Promise.all([
    runsAwaitingInputOf(ctx, userId, limit),
    pendingSuggestionsOf(ctx, userId, limit),
  ]);
  const runItems: FactWaiting[] = runs
    .sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id))
    .map((r) => ({
      text: `Run “${r.definition_name}” waits for your answer${r.human_prompt ? `: ${clip(r.human_prompt)}` : '.'}`,
      citation: {
        type: 'run',
        id: r.id,
        title: r.definition_name,
        url: r.conversation_id
          ? `/app/conversations/${encodeURIComponent(r.conversation_id)}`
          : '/app/ai-factory',
      },
    }));
  const suggestionItems: FactWaiting[] = suggestions
    .sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id))
    .map((s) => ({
      text: `Task suggestion “${s.title}” waits for your approval.`,
      citation: { type: 'suggestion', id: s.id, title: s.title, url: '/app/my-tasks#task-suggestions' },
    }));
  return [...runItems, ...suggestionItems].slice(0, limit);
}

function clip(text: string): string {
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length > 160 ? `${one.slice(0, 159)}…` : one;
}
