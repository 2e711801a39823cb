import { type Db, nowIso } from '../../db/index.ts';
import type {
  CommsMessagesTable,
  CommsParticipantsTable,
  CommsSuggestionsTable,
  CommsThreadsTable,
} from '../../db/types.ts';

// Comms reads `users` and `organization_members` read-only for names and the "who may I message"
// rule (one query per page, like contacts and tasks); writes to those tables stay in their modules.

export type ThreadRow = CommsThreadsTable & {
  name: string | null;
  visible: number;
  cleared_seq: number;
  list_updated_at: string;
};

/** The thread as one participant sees it; undefined when they are not a participant. */
export function findThreadFor(db: Db, threadId: string, userId: string): Promise<ThreadRow | undefined> {
  return db
    .selectFrom('comms_participants as p')
    .innerJoin('comms_threads as t', 't.id', 'p.thread_id')
    .selectAll('t')
    .select(['p.name', 'p.visible', 'p.cleared_seq', 'p.updated_at as list_updated_at'])
    .where('p.thread_id', '=', threadId)
    .where('p.user_id', '=', userId)
    .executeTakeFirst();
}

/** The caller's visible threads, newest first: one range of comms_participants_list_idx. */
export function listThreadsQuery(db: Db, o: { userId: string; skip: number; limit: number }) {
  return db
    .selectFrom('comms_participants as p')
    .innerJoin('comms_threads as t', 't.id', 'p.thread_id')
    .selectAll('t')
    .select(['p.name', 'p.visible', 'p.cleared_seq', 'p.updated_at as list_updated_at'])
    .where('p.user_id', '=', o.userId)
    .where('p.visible', '=', 1)
    .orderBy('p.updated_at', 'desc')
    .orderBy('p.thread_id', 'desc')
    .limit(o.limit)
    .offset(o.skip);
}

export const listThreads = (db: Db, o: { userId: string; skip: number; limit: number }) =>
  listThreadsQuery(db, o).execute();

export interface ParticipantRow {
  thread_id: string;
  user_id: string;
  email: string;
  first_name: string | null;
  last_name: string | null;
  role: string | null;
}

export function participantsOf(db: Db, threadIds: readonly string[]): Promise<ParticipantRow[]> {
  if (!threadIds.length) return Promise.resolve([]);
  return db
    .selectFrom('comms_participants as p')
    .innerJoin('users as u', 'u.id', 'p.user_id')
    .select(['p.thread_id', 'p.user_id', 'u.email', 'u.first_name', 'u.last_name', 'u.role'])
    .where('p.thread_id', 'in', [...threadIds])
    .orderBy('p.thread_id')
    .orderBy('u.first_name')
    .execute();
}

export async function suggestionIdsFor(
  db: Db,
  userId: string,
  threadIds: readonly string[],
): Promise<Map<string, string>> {
  if (!threadIds.length) return new Map();
  const rows = await db
    .selectFrom('comms_suggestions')
    .select(['id', 'thread_id'])
    .where('user_id', '=', userId)
    .where('thread_id', 'in', [...threadIds])
    .execute();
  return new Map(rows.map((r) => [r.thread_id, r.id]));
}

export function findThreadByKey(db: Db, key: string) {
  return db.selectFrom('comms_threads').select('id').where('participant_key', '=', key).executeTakeFirst();
}

export async function insertThread(
  db: Db,
  thread: CommsThreadsTable,
  participants: CommsParticipantsTable[],
) {
  await db.insertInto('comms_threads').values(thread).execute();
  await db.insertInto('comms_participants').values(participants).execute();
}

export async function updateParticipant(
  db: Db,
  threadId: string,
  userId: string,
  set: Partial<CommsParticipantsTable>,
): Promise<void> {
  await db
    .updateTable('comms_participants')
    .set(set)
    .where('thread_id', '=', threadId)
    .where('user_id', '=', userId)
    .execute();
}

export async function countVisibleParticipants(db: Db, threadId: string): Promise<number> {
  const row = await db
    .selectFrom('comms_participants')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('thread_id', '=', threadId)
    .where('visible', '=', 1)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function deleteThread(db: Db, threadId: string): Promise<void> {
  await db.deleteFrom('comms_threads').where('id', '=', threadId).execute();
}

export type NewMessage = Omit<CommsMessagesTable, 'seq'>;

/** Stores a message and moves the thread up every participant's list (public messages only). */
export async function insertMessage(db: Db, m: NewMessage): Promise<number> {
  const row = await db.insertInto('comms_messages').values(m).returning('seq').executeTakeFirstOrThrow();
  const seq = Number(row.seq);
  if (m.visible_to === null) {
    await db
      .updateTable('comms_threads')
      .set({ last_message_text: m.text, last_seq: seq, updated_at: m.created_at })
      .where('id', '=', m.thread_id)
      .execute();
    await db
      .updateTable('comms_participants')
      .set({ updated_at: m.created_at, visible: 1 })
      .where('thread_id', '=', m.thread_id)
      .execute();
  }
  return seq;
}

export type MessageRow = Omit<CommsMessagesTable, 'seq'> & { seq: number };

interface LatestOptions {
  threadId: string;
  viewerId: string;
  after: number;
  before?: number;
  limit: number;
}

/** The page of messages before `before` (newest first); served by comms_messages_thread_idx. */
export function latestMessagesQuery(db: Db, o: LatestOptions) {
  let q = db
    .selectFrom('comms_messages')
    .selectAll()
    .where('thread_id', '=', o.threadId)
    .where('seq', '>', o.after)
    .where((eb) => eb.or([eb('visible_to', 'is', null), eb('visible_to', '=', o.viewerId)]));
  if (o.before !== undefined) q = q.where('seq', '<', o.before);
  return q.orderBy('seq', 'desc').limit(o.limit);
}

export async function latestMessages(db: Db, o: LatestOptions): Promise<MessageRow[]> {
  return (await latestMessagesQuery(db, o).execute()) as MessageRow[];
}

/** Messages strictly after a seq, oldest first (the stream's replay). */
export function messagesAfterQuery(db: Db, o: { threadId: string; after: number; limit: number }) {
  return db
    .selectFrom('comms_messages')
    .selectAll()
    .where('thread_id', '=', o.threadId)
    .where('seq', '>', o.after)
    .orderBy('seq', 'asc')
    .limit(o.limit);
}

export async function messagesAfter(db: Db, o: { threadId: string; after: number; limit: number }) {
  return (await messagesAfterQuery(db, o).execute()) as MessageRow[];
}

export async function maxSeq(db: Db, threadId: string): Promise<number> {
  const row = await db
    .selectFrom('comms_messages')
    .select((eb) => eb.fn.max('seq').as('m'))
    .where('thread_id', '=', threadId)
    .executeTakeFirst();
  return Number(row?.m ?? 0);
}

export function findSuggestion(db: Db, threadId: string, userId: string) {
  return db
    .selectFrom('comms_suggestions')
    .selectAll()
    .where('thread_id', '=', threadId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

/** Replaces the recipient's current suggestion (one per thread and person). */
export async function putSuggestion(
  db: Db,
  suggestion: Omit<CommsSuggestionsTable, 'updated_at'>,
): Promise<void> {
  const s = { ...suggestion, updated_at: suggestion.created_at };
  await db
    .insertInto('comms_suggestions')
    .values(s)
    .onConflict((oc) =>
      oc.columns(['thread_id', 'user_id']).doUpdateSet({
        id: s.id,
        status: s.status,
        text: s.text,
        context: s.context,
        for_seq: s.for_seq,
        created_at: s.created_at,
        updated_at: s.updated_at,
      }),
    )
    .execute();
}

/** Fills a pending suggestion; false when it was dismissed, used or replaced meanwhile. */
export async function completeSuggestion(
  db: Db,
  id: string,
  text: string,
  citations: string | null = null,
): Promise<boolean> {
  const res = await db
    .updateTable('comms_suggestions')
    .set({ status: 'ready', text, citations, updated_at: nowIso() })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

export async function deleteSuggestion(db: Db, threadId: string, userId: string): Promise<void> {
  await db
    .deleteFrom('comms_suggestions')
    .where('thread_id', '=', threadId)
    .where('user_id', '=', userId)
    .execute();
}

export async function deleteSuggestionById(db: Db, id: string): Promise<void> {
  await db.deleteFrom('comms_suggestions').where('id', '=', id).execute();
}

/**
 * Of these users, the ones the caller may message: approved (not waitlisted) with a membership (not
 * an invite) in one of the caller's organizations; the same rule as GET /api/contacts/assignable.
 */
export async function messageableUsers(
  db: Db,
  userIds: readonly string[],
  callerOrgIds: readonly string[],
): Promise<string[]> {
  if (!userIds.length || !callerOrgIds.length) return [];
  const rows = await db
    .selectFrom('users')
    .select('users.id')
    .where('users.id', 'in', [...userIds])
    .where('users.user_level', '!=', 'waitlisted')
    .where(
      'users.id',
      'in',
      db
        .selectFrom('organization_members')
        .select('organization_members.user_id')
        .where('organization_members.organization_id', 'in', [...callerOrgIds])
        .where('organization_members.is_invite', '=', 0)
        .$narrowType<{ user_id: string }>(),
    )
    .execute();
  return rows.map((r) => r.id);
}

export function userName(db: Db, userId: string) {
  return db
    .selectFrom('users')
    .select(['id', 'email', 'first_name', 'last_name', 'role'])
    .where('id', '=', userId)
    .executeTakeFirst();
}

export async function scriptedUsers(db: Db, userIds: readonly string[]) {
  if (!userIds.length) return [];
  return db
    .selectFrom('comms_scripted_users')
    .select(['user_id', 'script'])
    .where('user_id', 'in', [...userIds])
    .execute();
}

export async function isScripted(db: Db, userId: string): Promise<boolean> {
  return (await scriptedUsers(db, [userId])).length > 0;
}

export async function insertScriptedUser(db: Db, userId: string, script: string[], now: string) {
  await db
    .insertInto('comms_scripted_users')
    .values({ user_id: userId, script: JSON.stringify(script), created_at: now })
    .execute();
}

/** How many messages this sender has written in the thread (picks the next scripted line). */
export async function countSentBy(db: Db, threadId: string, senderId: string): Promise<number> {
  const row = await db
    .selectFrom('comms_messages')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('thread_id', '=', threadId)
    .where('sender_id', '=', senderId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * The user's visible threads whose last public message was sent by someone else before `before`, oldest
 * first. Reads the user's participant rows (comms_participants_list_idx) and each thread's last message
 * by its key (comms_messages_thread_idx); bounded by `scan` participant rows.
 */
export function threadsAwaitingReply(db: Db, o: { userId: string; before: string; scan: number }) {
  const mine = db
    .selectFrom('comms_participants')
    .select('thread_id')
    .where('user_id', '=', o.userId)
    .where('visible', '=', 1)
    .orderBy('updated_at', 'desc')
    .limit(o.scan);
  return db
    .selectFrom('comms_threads as t')
    .innerJoin('comms_messages as m', (j) =>
      j.onRef('m.thread_id', '=', 't.id').onRef('m.seq', '=', 't.last_seq'),
    )
    .select(['t.id', 'm.sender_id', 'm.sender_name', 'm.text', 'm.created_at'])
    .where('t.id', 'in', mine)
    .where('m.kind', '=', 'user')
    .where('m.sender_id', 'is not', null)
    .where('m.sender_id', '!=', o.userId)
    .where('m.created_at', '<', o.before)
    .orderBy('m.created_at')
    .execute();
}

/** Public messages in [since, until) of the user's visible threads, newest first, at most `limit`. */
export function messagesOfUserBetween(
  db: Db,
  o: { userId: string; since: string; until: string; scan: number; limit: number },
) {
  const mine = db
    .selectFrom('comms_participants')
    .select('thread_id')
    .where('user_id', '=', o.userId)
    .where('visible', '=', 1)
    .orderBy('updated_at', 'desc')
    .limit(o.scan);
  return db
    .selectFrom('comms_messages')
    .select(['id', 'thread_id', 'sender_id', 'sender_name', 'text', 'created_at'])
    .where('thread_id', 'in', mine)
    .where('visible_to', 'is', null)
    .where('kind', '=', 'user')
    .where('created_at', '>=', o.since)
    .where('created_at', '<', o.until)
    .orderBy('created_at', 'desc')
    .limit(o.limit)
    .execute();
}
