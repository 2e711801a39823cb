import type { TTask } from '@cc/contract';
import { useEffect } from 'react';
import { useSearchParams } from 'react-router';
import { notify } from '../../lib/toast';
import { readTask } from './api';

/**
 * `/app/my-tasks?task=<id>` (a brief's citation, a link in an e-mail) opens that task's dialog, then
 * drops the parameter so closing the dialog does not reopen it.
 */
export function useLinkedTask(open: (task: TTask) => void) {
  const [params, setParams] = useSearchParams();
  const id = params.get('task');
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once per linked id, not per render of `open`
  useEffect(() => {
    if (!id) return;
    let live = true;
    readTask(id)
      .then((task) => live && open(task))
      .catch((err: Error) => live && notify.error('Could not open the task', err.message))
      .finally(() => {
        if (!live) return;
        setParams(
          (p) => {
            p.delete('task');
            return p;
          },
          { replace: true },
        );
      });
    return () => {
      live = false;
    };
  }, [id]);
}
