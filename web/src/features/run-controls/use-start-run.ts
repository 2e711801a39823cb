import { isApiError, serverDetail } from '../../lib/api';
import { notify } from '../../lib/toast';
import { useStartRun } from './api';
import type { PickedItem } from './components/run-picker';
import { patchRunSession } from './session-store';

/** Starts a crew or flow in a conversation and follows it; failures say so in a toast and inline. */
export function useStartRunIn(conversationId: string) {
  const start = useStartRun();
  const startRun = (item: PickedItem, inputs: Record<string, string>) => {
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
  return { startRun, pending: start.isPending };
}
