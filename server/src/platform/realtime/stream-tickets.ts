import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../../db/index.ts';

export const STREAM_TICKET_TTL_SECONDS = 60;

const hash = (ticket: string) => createHash('sha256').update(ticket).digest('base64url');

/** Issues a single-use ticket bound to the caller's session (so revoking the session voids it). */
export async function issueStreamTicket(db: Db, userId: string, sessionId: string): Promise<string> {
  const ticket = `st_${randomBytes(24).toString('base64url')}`;
  const now = Date.now();
  await db
    .insertInto('stream_tickets')
    .values({
      id: hash(ticket),
      user_id: userId,
      session_id: sessionId,
      expires_at: new Date(now + STREAM_TICKET_TTL_SECONDS * 1000).toISOString(),
    })
    .execute();
  // Opportunistic clean-up keeps the table tiny without a timer.
  await db.deleteFrom('stream_tickets').where('expires_at', '<', new Date(now).toISOString()).execute();
  return ticket;
}

/** Redeems a ticket once: the row is deleted in the same statement that reads it. */
export async function redeemStreamTicket(
  db: Db,
  ticket: string,
): Promise<{ user_id: string; session_id: string } | null> {
  const row = await db
    .deleteFrom('stream_tickets')
    .where('id', '=', hash(ticket))
    .returning(['user_id', 'session_id', 'expires_at'])
    .executeTakeFirst();
  if (!row || row.expires_at <= new Date().toISOString()) return null;
  return { user_id: row.user_id, session_id: row.session_id };
}
