import {
  assertUnchanged,
  readOrGone,
  type UndoHandler,
  type UndoHandlers,
} from '../activity/activity.undo.ts';
import { deleteTask, getTask } from './tasks.service.ts';

/** An AI-created task (an accepted task suggestion) is deleted, unless someone edited it since. */
const undoTaskCreated: UndoHandler = async (ctx, r) => {
  const task = await readOrGone(() => getTask(ctx, r.actor, r.entityId), 'task');
  assertUnchanged('task', r.after, task as unknown as Record<string, unknown>);
  await deleteTask(ctx, r.actor, r.entityId);
  return { summary: `Undid: deleted the task "${task.title}"`, before: task, after: null };
};

export function registerTaskUndoHandlers(undo: UndoHandlers): void {
  undo.register('task.created', undoTaskCreated);
}
