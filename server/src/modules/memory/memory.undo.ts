import { readOrGone, type UndoHandler, type UndoHandlers } from '../activity/activity.undo.ts';
import { deleteMemory } from './memory.service.ts';

/** A memory the AI stored is forgotten (memories are never edited: only "gone" can conflict). */
const undoMemoryCreated: UndoHandler = async (ctx, r) => {
  await readOrGone(() => deleteMemory(ctx, r.actor, r.entityId), 'memory');
  return {
    summary: `Undid: forgot the memory "${String(r.after?.content ?? '')}"`,
    before: r.after,
    after: null,
  };
};

export function registerMemoryUndoHandlers(undo: UndoHandlers): void {
  undo.register('memory.created', undoMemoryCreated);
}
