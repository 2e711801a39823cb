import {
  assertUnchanged,
  readOrGone,
  type UndoHandler,
  type UndoHandlers,
} from '../activity/activity.undo.ts';
import { deleteAdvice, getAdvice } from './advice.service.ts';

/** AI-written advice (Generate Advice, a run's advice step) is deleted, unless it changed since. */
const undoAdviceCreated: UndoHandler = async (ctx, r) => {
  const advice = await readOrGone(() => getAdvice(ctx, r.actor, r.entityId), 'advice');
  assertUnchanged('advice', r.after, advice as unknown as Record<string, unknown>);
  await deleteAdvice(ctx, r.actor, r.entityId);
  return { summary: `Undid: deleted the advice "${advice.advice_title ?? ''}"`, before: advice, after: null };
};

export function registerAdviceUndoHandlers(undo: UndoHandlers): void {
  undo.register('advice.created', undoAdviceCreated);
}
