import { type Expression, expressionBuilder, type SqlBool } from 'kysely';
import type { Database } from '../../db/types.ts';

/**
 * Who may see a note (journal entry): the one home of this rule (the REST service, the list query, the
 * internal search and the AI workspace snapshot read it from here). Notes are private to their owner;
 * anyone else gets 404, as if the entry did not exist.
 */
export const canSeeNote = (note: { user_id: string }, viewer: { id: string }) => note.user_id === viewer.id;

/** The predicate over `journals` that keeps only the viewer's own notes (journals_user_date_idx). */
export function visibleNotes(viewer: { id: string }): Expression<SqlBool> {
  return expressionBuilder<Database, 'journals'>()('journals.user_id', '=', viewer.id);
}

/** The internal search's rule: the note whose id is `noteId` is one the viewer may see. */
export function noteSearchVisibility(
  viewer: { id: string },
  noteId: Expression<string>,
): Expression<SqlBool> {
  const eb = expressionBuilder<Database, never>();
  return eb.exists(
    eb
      .selectFrom('journals')
      .select('journals.id')
      .where('journals.id', '=', noteId)
      .where(visibleNotes(viewer)),
  );
}
