import type { AppContext } from '../../platform/context.ts';
import { AppError } from '../../platform/errors.ts';
import { deleteAdvice, getAdvice } from '../advice/advice.service.ts';
import { deleteMemory } from '../memory/memory.service.ts';
import { deleteTask, getTask } from '../tasks/tasks.service.ts';
import { assertUnchanged, goneSince, type UndoHandler, type UndoRequest } from './activity.undo.ts';

/** A read that answers 404 when the record is gone (or no longer visible to the entry's actor). */
async function current<T>(read: () => Promise<T>, noun: string): Promise<T> {
  try {
    return await read();
  } catch (err) {
    if (err instanceof AppError && err.statusCode === 404) throw goneSince(noun);
    throw err;
  }
}

/** An AI-created task (an accepted task suggestion) is deleted, unless someone edited it since. */
const undoTaskCreated: UndoHandler = async (ctx: AppContext, r: UndoRequest) => {
  const task = await current(() => getTask(ctx, r.actor, r.entityId), 'task');
  assertUnchanged('task', r.after, task as unknown as Record<string, unknown>);
  await deleteTask(ctx, r.actor, r.entityId);
  return { summary: `Undid: deleted the task "${task.title}"`, before: task, after: null };
};

/** AI-written advice (Generate Advice, a run's advice step) is deleted, unless it changed since. */
const undoAdviceCreated: UndoHandler = async (ctx, r) => {
  const advice = await current(() => getAdvice(ctx, r.actor, r.entityId), 'advice');
  assertUnchanged('advice', r.after, advice as unknown as Record<string, unknown>);
  await deleteAdvice(ctx, r.actor, r.entityId);
  return { summary: `Undid: deleted the advice "${advice.advice_title ?? ''}"`, before: advice, after: null };
};

/** A memory the AI stored is forgotten (memories are never edited: only "gone" can conflict). */
const undoMemoryCreated: UndoHandler = async (ctx, r) => {
  await current(() => deleteMemory(ctx, r.actor, r.entityId), 'memory');
  return {
    summary: `Undid: forgot the memory "${String(r.after?.content ?? '')}"`,
    before: r.after,
    after: null,
  };
};

/** The undoable actions, by `action`: an entry is undoable only if its action has a handler here. */
export const UNDO_HANDLERS: Readonly<Record<string, UndoHandler>> = {
  'task.created': undoTaskCreated,
  'advice.created': undoAdviceCreated,
  'memory.created': undoMemoryCreated,
};
