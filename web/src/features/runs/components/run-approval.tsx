import type { TRunEvent } from '@cc/contract';
import { useState } from 'react';
import { serverDetail } from '../../../lib/api';
import { notify } from '../../../lib/toast';
import { INTERRUPTED_CALL_ANSWER_LABELS } from '@cc/contract';
import { useAnswerInterruptedCall, useDecideToolCall } from '../api';
import { interruptedCallOf, pendingApprovalOf, type RunStatus } from '../run-state';
import { ApprovalPanel } from './approval-panel';
import { InterruptedCallPanel } from './interrupted-call-panel';

/**
 * The call a run waits on, from its (live) events, with the decision sent for it (or, for an approved
 * call cut by a crash, the question whether it went through and its three answers). A decision made
 * elsewhere (the inbox, another tab) arrives as an event and the panel goes.
 */
export function RunApproval({
  runId,
  events,
  status,
}: {
  runId: string;
  events: readonly TRunEvent[];
  status: RunStatus;
}) {
  const decide = useDecideToolCall();
  const answer = useAnswerInterruptedCall();
  // Hidden as soon as the decision is accepted, before its event arrives.
  const [decided, setDecided] = useState<string | null>(null);
  const interrupted = interruptedCallOf(events, status);
  if (interrupted && decided !== interrupted.approvalId) {
    return (
      <InterruptedCallPanel
        key={interrupted.approvalId}
        call={interrupted}
        pending={answer.isPending}
        onAnswer={(choice) =>
          answer.mutate(
            { runId, approvalId: interrupted.approvalId, answer: choice },
            {
              onSuccess: () => {
                setDecided(interrupted.approvalId);
                notify.success(INTERRUPTED_CALL_ANSWER_LABELS[choice]);
              },
              onError: (err: unknown) => notify.error('The answer was not saved', serverDetail(err)),
            },
          )
        }
      />
    );
  }
  const approval = pendingApprovalOf(events, status);
  if (!approval || decided === approval.approvalId) return null;

  const done = (message: string) => ({
    onSuccess: () => {
      setDecided(approval.approvalId);
      notify.success(message);
    },
    onError: (err: unknown) => notify.error('The decision was not saved', serverDetail(err)),
  });

  return (
    <ApprovalPanel
      key={approval.approvalId}
      approval={approval}
      pending={decide.isPending}
      onApprove={(args) =>
        decide.mutate(
          { runId, approvalId: approval.approvalId, approve: true, arguments: args },
          done('Call approved'),
        )
      }
      onReject={(reason) =>
        decide.mutate(
          { runId, approvalId: approval.approvalId, approve: false, reason },
          done('Call rejected'),
        )
      }
    />
  );
}
