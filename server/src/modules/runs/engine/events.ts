import type { TRunEvent } from '@cc/contract';
import type { AppContext } from '../../../platform/context.ts';
import { runEngineOf } from './engine-registry.ts';
import type { RunEventRow, RunRow } from './runs.repository.ts';

/** Bus channel of one run: `{kind:'event'}` means new timeline rows; `{kind:'stop'}` aborts its step. */
export const runChannel = (id: string) => `run:${id}`;
/** Bus channel the workers listen on: a run became runnable (started or continued). */
export const WAKE_CHANNEL = 'runs:wake';

/** Event types that also become a line of the run's conversation log. */
const LOGGED_TYPES = new Set([
  'crew_start',
  'flow_start',
  'task_start',
  'step_start',
  'tool_call',
  'human_prompt',
  'wait_for_human',
  'human_input',
  // An approved call was cut: the conversation following the run sees the question too.
  'call_interrupted',
  'crew_end',
  'crew_error',
  'result',
  'terminal',
]);

export function presentEvent(row: RunEventRow, threadId: string | null): TRunEvent {
  let details: Record<string, unknown> | null = null;
  if (row.details) {
    try {
      details = JSON.parse(row.details) as Record<string, unknown>;
    } catch {
      details = null;
    }
  }
  return {
    id: String(row.seq),
    run_id: row.run_id,
    type: row.type,
    summary: row.summary,
    details,
    ts: row.ts,
    thread_id: threadId,
  };
}

function logText(row: RunEventRow): string {
  const details = row.details ? (JSON.parse(row.details) as Record<string, unknown>) : {};
  if (row.type === 'crew_end' || row.type === 'result') {
    const result = typeof details.result === 'string' ? details.result : '';
    return result ? `${row.summary}\n\n${result}` : row.summary;
  }
  if (row.type === 'human_prompt' || row.type === 'wait_for_human') {
    return typeof details.prompt === 'string' ? details.prompt : row.summary;
  }
  return row.summary;
}

/**
 * After the rows are committed: notify the run's streams, then write the conversation log lines.
 * A lost note or log line never loses the timeline, which is the source of truth.
 */
export async function announce(
  ctx: AppContext,
  run: Pick<RunRow, 'id' | 'kind' | 'conversation_id'>,
  rows: RunEventRow[],
): Promise<void> {
  if (!rows.length) return;
  await ctx.bus.publish(runChannel(run.id), { kind: 'event', seq: rows[rows.length - 1].seq });
  if (!run.conversation_id) return;
  const { conversationLog } = runEngineOf(ctx).ports;
  for (const row of rows) {
    if (!LOGGED_TYPES.has(row.type)) continue;
    try {
      await conversationLog(ctx, {
        conversationId: run.conversation_id,
        sender: 'crew',
        text: logText(row),
        crewRunId: run.kind === 'crew' ? run.id : null,
        flowRunId: run.kind === 'flow' ? run.id : null,
      });
    } catch {
      // The conversation may have been deleted while the run went on; the timeline still has it.
    }
  }
}
