import type { TRunEvent } from '@cc/contract';
import { useState } from 'react';
import { serverDetail } from '../../../lib/api';
import { notify } from '../../../lib/toast';
import { useDecideToolCall } from '../api';
import { pendingApprovalOf, type RunStatus } from '../run-state';
import { ApprovalPanel } from './approval-panel';

/**
 * The call a run waits on, from its (live) events, with the decision sent for it. A decision made
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
  // Hidden as soon as the decision is accepted, before its event arrives.
  const [decided, setDecided] = useState<string | null>(null);
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
