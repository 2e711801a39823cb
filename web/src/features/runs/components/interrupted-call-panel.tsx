import {
  INTERRUPTED_CALL_ANSWER_LABELS,
  INTERRUPTED_CALL_ANSWERS,
  type TInterruptedCallAnswer,
} from '@cc/contract';
import { CircleHelp } from 'lucide-react';
import { Button } from '../../../components/ui/button';
import type { InterruptedCall } from '../run-state';

export const INTERRUPTED_CALL_REGION = 'Interrupted call';
export const INTERRUPTED_CALL_EXPLAINED =
  'The run stopped while this approved call was being sent, so it was not sent again. Say what happened and the run goes on.';

/**
 * An approved call cut by a crash: the question, the call as it was approved, and the three answers
 * (it went through / it did not, retry / stop the run).
 */
export function InterruptedCallPanel({
  call,
  pending,
  onAnswer,
}: {
  call: InterruptedCall;
  pending: boolean;
  onAnswer: (answer: TInterruptedCallAnswer) => void;
}) {
  return (
    <section
      aria-label={INTERRUPTED_CALL_REGION}
      className="flex flex-col gap-2 rounded-lg border border-[#854d0e] bg-[#2d1f05]/60 p-3 text-sm"
    >
      <h3 className="flex items-center gap-2 font-medium text-[#fcd34d]">
        <CircleHelp aria-hidden="true" className="size-4" />
        {call.question}
      </h3>
      <p className="text-xs text-muted-foreground">{INTERRUPTED_CALL_EXPLAINED}</p>
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
        <dt className="text-muted-foreground">Tool</dt>
        <dd>{call.tool}</dd>
        <dt className="text-muted-foreground">Method</dt>
        <dd className="font-mono">{call.method}</dd>
        <dt className="text-muted-foreground">Destination</dt>
        <dd className="font-mono break-all">{call.url}</dd>
      </dl>
      {call.body ? (
        <pre className="max-h-48 overflow-auto rounded-md border border-border bg-card p-2 text-xs">
          {JSON.stringify(call.body, null, 2)}
        </pre>
      ) : null}
      <div className="flex flex-wrap justify-end gap-2">
        {INTERRUPTED_CALL_ANSWERS.map((answer) => (
          <Button
            key={answer}
            type="button"
            size="sm"
            variant={answer === 'stop' ? 'destructive' : answer === 'retry' ? 'secondary' : 'default'}
            disabled={pending}
            onClick={() => onAnswer(answer)}
          >
            {INTERRUPTED_CALL_ANSWER_LABELS[answer]}
          </Button>
        ))}
      </div>
    </section>
  );
}
