import { isApiError, serverDetail } from '../../lib/api';
import { notify } from '../../lib/toast';
import type { TRunEstimate } from '@cc/contract';
import { useState } from 'react';
import { fetchRunEstimate, useStartRun } from './api';
import type { PickedItem } from './components/run-picker';
import { patchRunSession } from './session-store';

/** Starts a crew or flow in a conversation and follows it; failures say so in a toast and inline. */
export function useStartRunIn(conversationId: string) {
  const start = useStartRun();
  // A run estimated above the person's threshold waits here for their confirmation.
  const [confirming, setConfirming] = useState<{
    item: PickedItem;
    inputs: Record<string, string>;
    estimate: TRunEstimate;
  } | null>(null);
  const [estimating, setEstimating] = useState(false);
  const launch = (item: PickedItem, inputs: Record<string, string>) => {
    patchRunSession(conversationId, { startError: null, startLimit: null });
    start.mutate(
      { kind: item.kind, itemId: item.id, conversationId, inputs },
      {
        onSuccess: (id) => {
          patchRunSession(conversationId, {
            target: { kind: item.kind, id, name: item.name },
            pickerOpen: false,
            asking: null,
            answered: null,
          });
          notify.success(item.kind === 'crew' ? 'Crew started' : 'Flow started');
        },
        onError: (err) => {
          console.error(`Failed to start the ${item.kind}`, err);
          const startLimit = isApiError(err) && err.status === 429 ? err.message : null;
          patchRunSession(conversationId, {
            startError: item.kind,
            startLimit,
            pickerOpen: false,
            asking: null,
          });
          notify.error(
            item.kind === 'crew' ? 'Failed to start crew' : 'Failed to start flow',
            serverDetail(err),
          );
        },
      },
    );
  };
  const startRun = (item: PickedItem, inputs: Record<string, string>) => {
    setEstimating(true);
    void fetchRunEstimate(item.kind, item.id).then((estimate) => {
      setEstimating(false);
      if (estimate?.needs_confirmation) setConfirming({ item, inputs, estimate });
      else launch(item, inputs);
    });
  };
  const confirmation = confirming
    ? {
        estimate: confirming.estimate,
        name: confirming.item.name,
        confirm: () => {
          launch(confirming.item, confirming.inputs);
          setConfirming(null);
        },
        cancel: () => setConfirming(null),
      }
    : null;
  return { startRun, pending: start.isPending || estimating, confirmation };
}
