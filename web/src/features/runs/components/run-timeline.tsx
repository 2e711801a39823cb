import { runEventLabel, type TRunEvent } from '@cc/contract';
import {
  AlertTriangle,
  Bot,
  CheckCircle2,
  CircleDot,
  Flag,
  Hand,
  MessageSquare,
  Play,
  ShieldAlert,
  ShieldCheck,
  ShieldX,
  Wrench,
} from 'lucide-react';
import { cn } from '../../../lib/utils';
import { formatTime } from '../../../lib/format';

const ICONS: Record<string, typeof CircleDot> = {
  crew_start: Play,
  flow_start: Play,
  task_start: Bot,
  step_start: Bot,
  thought: MessageSquare,
  tool_call: Wrench,
  tool_result: Wrench,
  task_output: CheckCircle2,
  step_output: CheckCircle2,
  human_prompt: Hand,
  wait_for_human: Hand,
  human_input: Hand,
  approval_required: ShieldAlert,
  approval_granted: ShieldCheck,
  approval_rejected: ShieldX,
  result: Flag,
  crew_end: Flag,
  terminal: Flag,
  crew_error: AlertTriangle,
};

const time = (ts: string) => formatTime(ts, { seconds: true });

/** The run's timeline, oldest first; new events are announced politely (role="log"). */
export function RunTimeline({
  events,
  label = 'Run timeline',
}: {
  events: readonly TRunEvent[];
  label?: string;
}) {
  if (!events.length) {
    return <p className="text-sm text-muted-foreground">Waiting for the first event…</p>;
  }
  return (
    // The scrolling log is focusable so keyboard users can scroll it.
    <div
      role="log"
      aria-label={label}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard.
      tabIndex={0}
      className="max-h-48 overflow-y-auto rounded-md pr-1 sm:max-h-64 focus-visible:outline-2 focus-visible:outline-ring"
    >
      <ol className="flex flex-col gap-2">
        {events.map((e) => {
          const Icon = ICONS[e.type] ?? CircleDot;
          const failed = e.type === 'crew_error' || (e.type === 'terminal' && /fail/i.test(e.summary));
          return (
            <li key={e.id} className="flex gap-2 text-sm" data-event-type={e.type}>
              <Icon
                aria-hidden="true"
                className={cn('mt-0.5 size-4 shrink-0', failed ? 'text-danger-text' : 'text-primary')}
              />
              <div className="flex min-w-0 flex-1 flex-col">
                <span className={cn('break-words', failed && 'text-danger-text')}>{e.summary || e.type}</span>
                <span className="text-xs text-muted-foreground">
                  {runEventLabel(e.type)} · <time dateTime={e.ts}>{time(e.ts)}</time>
                </span>
              </div>
            </li>
          );
        })}
      </ol>
    </div>
  );
}
