import { citationUrl, type TInboxItem } from '@cc/contract';
import type { AppContext } from '../../platform/context.ts';
import { threadNameFor } from '../comms/comms.service.ts';
import { firstInboxPageOf } from '../inbox/inbox.service.ts';
import { runNamesOf } from '../runs/runs.service.ts';
import type { FactWaiting } from './briefs.facts.ts';

/**
 * "Items waiting" for the person: exactly the items `GET /api/inbox/` lists them (their PENDING items,
 * every kind, oldest first, its first page) and its total, each cited as the inbox item so the brief's
 * chip and action open it in the inbox. One delegated away or already decided is not listed.
 */
export async function itemsWaitingFor(
  ctx: AppContext,
  userId: string,
): Promise<{ waiting: FactWaiting[]; total: number }> {
  const { items, total } = await firstInboxPageOf(ctx, userId);
  const names = await namesFor(ctx, userId, items);
  const waiting = items.map((item) => {
    const { subject, text } = wording(item, names);
    return {
      text,
      citation: { type: 'inbox', id: item.id, title: subject, url: citationUrl('inbox', item.id) },
    };
  });
  return { waiting, total };
}

interface Names {
  runs: Map<string, string>;
  threads: Map<string, string | null>;
}

const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v : null);

/** The run and thread names the wording uses, read in one go for all items. */
async function namesFor(ctx: AppContext, userId: string, items: TInboxItem[]): Promise<Names> {
  const runIds = items.flatMap((i) => {
    const id = i.kind === 'run_input' || i.kind === 'tool_approval' ? str(i.details.run_id) : null;
    return id ? [id] : [];
  });
  const threadIds = [
    ...new Set(items.flatMap((i) => (i.kind === 'comms_draft' ? [str(i.details.thread_id) ?? ''] : []))),
  ].filter(Boolean);
  const [runs, threadNames] = await Promise.all([
    runNamesOf(ctx, runIds),
    // A delegated draft's reader may not be in the thread: no name then (the item's title speaks).
    Promise.all(threadIds.map((id) => threadNameFor(ctx, userId, id))),
  ]);
  return { runs, threads: new Map(threadIds.map((id, i) => [id, threadNames[i]])) };
}

/**
 * One sentence per kind (docs/decisions/, 2026-11-25). `subject` is the citation's title and is
 * always part of `text`, so an action worded from the citation states no number the facts lack.
 */
function wording(item: TInboxItem, names: Names): { subject: string; text: string } {
  const d = item.details;
  switch (item.kind) {
    case 'task_suggestion':
      return {
        subject: item.title,
        text: `Task suggestion “${item.title}” waits for your approval.`,
      };
    case 'run_input': {
      const subject = names.runs.get(str(d.run_id) ?? '') ?? item.title;
      const prompt = str(d.prompt) ?? str(item.summary);
      return { subject, text: `Run “${subject}” waits for your answer${prompt ? `: ${clip(prompt)}` : '.'}` };
    }
    case 'tool_approval': {
      const subject = names.runs.get(str(d.run_id) ?? '') ?? item.title;
      const tool = str(d.tool) ?? 'a tool';
      const call = [str(d.method), str(d.url)].filter(Boolean).join(' ');
      return {
        subject,
        text: `Run “${subject}” asks to call ${tool}${call ? ` (${clip(call)})` : ''}.`,
      };
    }
    case 'comms_draft': {
      const thread = names.threads.get(str(d.thread_id) ?? '') ?? null;
      return thread
        ? { subject: thread, text: `AI draft reply in “${thread}” waits for your review.` }
        : { subject: item.title, text: `AI draft “${item.title}” waits for your review.` };
    }
    default:
      return { subject: item.title, text: `“${item.title}” waits for you in your inbox.` };
  }
}

function clip(text: string): string {
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length > 160 ? `${one.slice(0, 159)}…` : one;
}
