import type { ExpressionBuilder } from 'kysely';
import type { CalendarEventsTable, ConnectionsTable, MailMessagesTable } from '../../db/connections-types.ts';
import type { Db } from '../../db/index.ts';
import type { Database } from '../../db/types.ts';

export type ConnectionRow = ConnectionsTable;
export type CalendarEventRow = CalendarEventsTable;
export type MailMessageRow = MailMessagesTable;

/** A person has at most MAX_CONNECTIONS_PER_PERSON connections; the list is capped, not paged. */
const MAX_CONNECTIONS_LISTED = 100;

export function listConnections(db: Db, userId: string): Promise<ConnectionRow[]> {
  return db
    .selectFrom('connections')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .orderBy('id')
    .limit(MAX_CONNECTIONS_LISTED)
    .execute();
}

export async function countConnections(db: Db, userId: string): Promise<number> {
  const row = await db
    .selectFrom('connections')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export function findConnection(db: Db, id: string): Promise<ConnectionRow | undefined> {
  return db.selectFrom('connections').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function insertConnection(db: Db, row: ConnectionRow): Promise<void> {
  await db.insertInto('connections').values(row).execute();
}

export async function updateConnection(db: Db, id: string, patch: Partial<ConnectionRow>): Promise<void> {
  await db.updateTable('connections').set(patch).where('id', '=', id).execute();
}

/** Deletes the connection; its events and mail go with it (ON DELETE CASCADE). */
export async function deleteConnection(db: Db, id: string): Promise<{ events: number; mails: number }> {
  const events = await db
    .selectFrom('calendar_events')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('connection_id', '=', id)
    .executeTakeFirstOrThrow();
  const mails = await db
    .selectFrom('mail_messages')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('connection_id', '=', id)
    .executeTakeFirstOrThrow();
  await db.deleteFrom('connections').where('id', '=', id).execute();
  return { events: Number(events.n), mails: Number(mails.n) };
}

// ---- the sync worker's lease ----

const due = (nowText: string) => (eb: ExpressionBuilder<Database, 'connections'>) =>
  eb.and([
    eb('next_sync_at', '<=', nowText),
    eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', nowText)]),
  ]);

/**
 * Claims the connection most overdue whose lease is free or expired, for `ms`: one statement, the
 * inner select (SKIP LOCKED on PostgreSQL) picks it and the outer update re-checks, so two instances
 * never sync one connection at once.
 */
export async function claimDueConnection(
  db: Db,
  dialect: 'sqlite' | 'postgres',
  owner: string,
  now: Date,
  ms: number,
): Promise<ConnectionRow | undefined> {
  const nowText = now.toISOString();
  let candidate = db
    .selectFrom('connections')
    .select('id')
    .where(due(nowText))
    .orderBy('next_sync_at')
    .limit(1);
  if (dialect === 'postgres') candidate = candidate.forUpdate().skipLocked();
  return db
    .updateTable('connections')
    .set({ lease_owner: owner, lease_until: new Date(now.getTime() + ms).toISOString(), status: 'syncing' })
    .where('id', '=', candidate)
    .where(due(nowText))
    .returningAll()
    .executeTakeFirst();
}

/** Extends the lease; false when the connection is gone or no longer ours. */
export async function renewLease(db: Db, id: string, owner: string, until: string): Promise<boolean> {
  const r = await db
    .updateTable('connections')
    .set({ lease_until: until })
    .where('id', '=', id)
    .where('lease_owner', '=', owner)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** Records a sync's progress, only while `owner` holds the lease (a lost lease writes nothing). */
export async function updateLeased(
  db: Db,
  id: string,
  owner: string,
  patch: Partial<ConnectionRow>,
): Promise<void> {
  await db
    .updateTable('connections')
    .set(patch)
    .where('id', '=', id)
    .where('lease_owner', '=', owner)
    .execute();
}

/** Records a sync's outcome and gives the lease back, only while `owner` holds it. */
export async function finishSync(
  db: Db,
  id: string,
  owner: string,
  patch: Partial<ConnectionRow>,
): Promise<void> {
  await db
    .updateTable('connections')
    .set({ ...patch, lease_owner: null, lease_until: null })
    .where('id', '=', id)
    .where('lease_owner', '=', owner)
    .execute();
}

// ---- imported calendar events ----

/**
 * Replaces what the CalDAV objects at `hrefs` imported with `rows` (a changed object's old occurrences
 * go; a deleted object's go with no rows), in one transaction.
 */
export async function replaceEventsOfObjects(
  db: Db,
  connectionId: string,
  hrefs: readonly string[],
  rows: CalendarEventRow[],
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    for (let i = 0; i < hrefs.length; i += 500) {
      await trx
        .deleteFrom('calendar_events')
        .where('connection_id', '=', connectionId)
        .where('href', 'in', hrefs.slice(i, i + 500))
        .execute();
    }
    await insertEvents(trx, rows);
  });
}

/** The object addresses a connection imported events from (a full re-read replaces them all). */
export async function hrefsOfConnection(db: Db, connectionId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('calendar_events')
    .select('href')
    .distinct()
    .where('connection_id', '=', connectionId)
    .where('href', 'is not', null)
    .execute();
  return rows.map((r) => r.href as string);
}

async function insertEvents(db: Db, rows: CalendarEventRow[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 100) {
    await db
      .insertInto('calendar_events')
      .values(rows.slice(i, i + 100))
      .onConflict((oc) => oc.columns(['connection_id', 'uid', 'starts_at']).doNothing())
      .execute();
  }
}

/** Every event of an ICS feed replaced at once (a feed has no change log: what is gone from it goes). */
export async function replaceAllEvents(
  db: Db,
  connectionId: string,
  rows: CalendarEventRow[],
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('calendar_events').where('connection_id', '=', connectionId).execute();
    await insertEvents(trx, rows);
  });
}

// ---- imported mail ----

export async function insertMail(db: Db, rows: MailMessageRow[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 100) {
    await db
      .insertInto('mail_messages')
      .values(rows.slice(i, i + 100))
      .onConflict((oc) => oc.columns(['connection_id', 'message_id']).doNothing())
      .execute();
  }
}

/** Forgets the mailbox's mail (its UIDVALIDITY changed: the server renumbered every message). */
export async function deleteMailOfMailbox(db: Db, connectionId: string, mailbox: string): Promise<void> {
  await db
    .deleteFrom('mail_messages')
    .where('connection_id', '=', connectionId)
    .where('mailbox', '=', mailbox)
    .execute();
}

/** Forgets mail older than the days the connection keeps (what is kept is the person's choice). */
export async function deleteMailBefore(db: Db, connectionId: string, before: string): Promise<void> {
  await db
    .deleteFrom('mail_messages')
    .where('connection_id', '=', connectionId)
    .where('sent_at', '<', before)
    .execute();
}
