import type { TTask } from '@cc/contract';
import { useLinkedRecord } from '../../lib/use-linked-record';
import { readTask } from './api';

/** `/app/my-tasks?task=<id>` (a brief's citation, a link in an e-mail) opens that task's dialog. */
export function useLinkedTask(open: (task: TTask) => void) {
  useLinkedRecord('task', 'task', readTask, open);
}
