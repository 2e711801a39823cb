import { notFound } from '../../platform/errors.ts';

/**
 * Who may see or change a connection (issue 49): its owner alone. A connection holds someone's mail
 * and calendar credentials, so for anyone else — an admin or the platform administrator included — it
 * does not exist (404), and what it imported is its owner's alone.
 */
export const canSeeConnection = (row: { user_id: string }, viewer: { id: string }) =>
  row.user_id === viewer.id;

export function assertSeesConnection<T extends { user_id: string }>(
  row: T | undefined,
  viewer: { id: string },
): T {
  if (!row || !canSeeConnection(row, viewer)) throw notFound('Connection not found.');
  return row;
}
