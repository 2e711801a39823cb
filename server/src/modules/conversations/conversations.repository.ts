import { PostgresAdapter, sql } from 'kysely';
import type { Db } from '../../db/index.ts';
import { preparedQuery } from '../../db/prepared-query.ts';
import type { ConversationMessagesTable, ConversationsTable } from '../../db/types.ts';

/** The columns of a message that its API shape shows (presentMessage): what a page reads. */
export type MessageRow = Omit<ConversationMessagesTable, 'position' | 'seq' | 'error' | 'updated_at'> & {
  position: number;
};

/** A message with its stream cursor (the stream's replay reads it). */
export type MessageWithSeq = MessageRow & { seq: number };

/**
 * The next value of the global stream cursor, computed inside the writing statement: PostgreSQL takes
 * it from a sequence; SQLite runs one statement at a time, so max(seq) + 1 (one step down the unique
 * seq index) is atomic there.
 */
function nextSeq(db: Db) {
  return db.getExecutor().adapter instanceof PostgresAdapter
    ? sql<number>`nextval('conversation_message_seq')`
    : sql<number>`(select coalesce(max(seq), 0) + 1 from conversation_messages)`;
}

// ---------------------------------------------------------------------------------------------
// Conversations

/** The owner's conversations, most recently updated first (conversations_user_updated_idx). */
export function listConversationsQuery(db: Db, userId: string, skip: number, limit: number) {
  return db
    .selectFrom('conversations')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('updated_at', 'desc')
    .orderBy('id', 'desc')
    .offset(skip)
    .limit(limit);
}

const conversationPage = preparedQuery((db, p: { userId: string; skip: number; limit: number }) =>
  listConversationsQuery(db, p.userId, p.skip, p.limit),
);

/** A page of the owner's conversations (GET /api/conversations/: prepared). */
export function listConversations(db: Db, userId: string, skip: number, limit: number) {
  return conversationPage(db, { userId, skip, limit });
}

const conversationById = preparedQuery((db, p: { id: string }) =>
  db.selectFrom('conversations').selectAll().where('id', '=', p.id),
);

/** One conversation (the ownership check of every conversation request: prepared). */
export async function findConversation(db: Db, id: string) {
  return (await conversationById(db, { id }))[0];
}

export async function insertConversation(db: Db, row: ConversationsTable): Promise<void> {
  await db.insertInto('conversations').values(row).execute();
}

type ConversationSet = Partial<Pick<ConversationsTable, 'name' | 'updated_at'>>;

const conversationUpdate = preparedQuery((db, p: ConversationSet & { id: string }) => {
  const { id, ...set } = p;
  return db.updateTable('conversations').set(set).where('id', '=', id);
});

/** Changes a conversation (every chat turn touches its updated_at: prepared). */
export async function updateConversation(db: Db, id: string, set: ConversationSet): Promise<void> {
  await conversationUpdate(db, { ...set, id });
}

export async function deleteConversation(db: Db, id: string): Promise<void> {
  await db.deleteFrom('conversations').where('id', '=', id).execute();
}

// ---------------------------------------------------------------------------------------------
// Messages

export type NewMessage = Omit<ConversationMessagesTable, 'position' | 'seq'>;

// The writes of every chat turn are prepared (built and compiled once per shape, see preparedQuery):
// building them with Kysely on each turn was a large share of a turn's CPU (issue 18's burst).
const messageInsert = preparedQuery((db, p: NewMessage) =>
  db
    .insertInto('conversation_messages')
    .values({ ...p, seq: nextSeq(db) })
    .returning(['position', 'seq']),
);

/** Inserts a message with the next cursor; returns its position and seq. */
export async function insertMessage(db: Db, row: NewMessage): Promise<{ position: number; seq: number }> {
  const [out] = await messageInsert(db, { ...row });
  if (!out) throw new Error('conversation message not inserted');
  return { position: Number(out.position), seq: Number(out.seq) };
}

type MessageSet = Partial<
  Pick<
    ConversationMessagesTable,
    'text' | 'status' | 'model' | 'input_tokens' | 'output_tokens' | 'error' | 'updated_at' | 'citations'
  >
>;

const messageUpdate = preparedQuery((db, p: MessageSet & { id: string }) => {
  const { id, ...set } = p;
  return db
    .updateTable('conversation_messages')
    .set({ ...set, seq: nextSeq(db) })
    .where('id', '=', id)
    .returning('seq');
});

/** Changes a message and moves it to the end of the stream (a new cursor), so streams re-send it. */
export async function updateMessage(db: Db, id: string, set: MessageSet): Promise<number | null> {
  const [row] = await messageUpdate(db, { ...set, id });
  return row ? Number(row.seq) : null;
}

export function findMessage(db: Db, id: string) {
  return db.selectFrom('conversation_messages').selectAll().where('id', '=', id).executeTakeFirst();
}

interface MessagePageParams {
  [key: string]: unknown;
  conversationId: string;
  before: number | null;
  /** The page size + 1 (to know whether older messages exist). */
  n: number;
}

/**
 * One page of the log, newest first from the index (conversation_messages_log_idx, whose entries
 * carry the position: the rowid on SQLite): the latest `n`, or those before a position. It reads only
 * the rows it returns, in index order, and only the columns a message's API shape shows.
 */
function messagePageOf(db: Db, p: MessagePageParams) {
  let q = db
    .selectFrom('conversation_messages')
    .select([
      'position',
      'id',
      'conversation_id',
      'sender',
      'text',
      'status',
      'model',
      'input_tokens',
      'output_tokens',
      'crew_run_id',
      'flow_run_id',
      'created_at',
      'citations',
    ])
    .where('conversation_id', '=', p.conversationId);
  if (p.before !== null) q = q.where('position', '<', p.before);
  return q.orderBy('position', 'desc').limit(p.n);
}

/** The page query as built for these values (the query-plan test reads it). */
export function messagePageQuery(db: Db, conversationId: string, before: number | undefined, limit: number) {
  return messagePageOf(db, { conversationId, before: before ?? null, n: limit + 1 });
}

const preparedMessagePage = preparedQuery(messagePageOf);

export async function messagePage(
  db: Db,
  conversationId: string,
  before: number | undefined,
  limit: number,
): Promise<{ rows: MessageRow[]; hasMore: boolean }> {
  const rows = (await preparedMessagePage(db, {
    conversationId,
    before: before ?? null,
    n: limit + 1,
  })) as MessageRow[];
  const hasMore = rows.length > limit;
  return { rows: rows.slice(0, limit).reverse(), hasMore };
}

/** Messages changed after a cursor, oldest change first (conversation_messages_cursor_idx). */
export function messagesAfterQuery(db: Db, conversationId: string, cursor: number, limit: number) {
  return db
    .selectFrom('conversation_messages')
    .selectAll()
    .where('conversation_id', '=', conversationId)
    .where('seq', '>', cursor)
    .orderBy('seq', 'asc')
    .limit(limit);
}

export async function messagesAfter(db: Db, conversationId: string, cursor: number, limit: number) {
  return (await messagesAfterQuery(db, conversationId, cursor, limit).execute()) as MessageWithSeq[];
}

const latestSeq = preparedQuery((db, p: { conversationId: string }) =>
  db
    .selectFrom('conversation_messages')
    .select('seq')
    .where('conversation_id', '=', p.conversationId)
    .orderBy('seq', 'desc')
    .limit(1),
);

/** The conversation's latest cursor (0 when it has no message; prepared: every page load reads it). */
export async function maxSeq(db: Db, conversationId: string): Promise<number> {
  const [row] = await latestSeq(db, { conversationId });
  return row ? Number(row.seq) : 0;
}

/** The last `count` messages (before a position, when given), oldest first: the model's context. */
export async function contextMessages(
  db: Db,
  conversationId: string,
  count: number,
  beforePosition?: number,
) {
  if (count <= 0) return [];
  const rows = await contextQuery(db, { conversationId, count, beforePosition: beforePosition ?? null });
  return rows.reverse();
}

const contextQuery = preparedQuery(
  (db, p: { conversationId: string; count: number; beforePosition: number | null }) => {
    let q = db
      .selectFrom('conversation_messages')
      .select(['sender', 'text', 'status'])
      .where('conversation_id', '=', p.conversationId);
    if (p.beforePosition !== null) q = q.where('position', '<', p.beforePosition);
    return q.orderBy('position', 'desc').limit(p.count);
  },
);

/** Whether a reply of this conversation is still being written. */
export async function hasStreamingReply(db: Db, conversationId: string): Promise<boolean> {
  const row = await db
    .selectFrom('conversation_messages')
    .select('id')
    .where('conversation_id', '=', conversationId)
    .where('status', '=', 'streaming')
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Replies still marked streaming, updated before `before` (all of them when null); partial index. */
export function streamingReplies(db: Db, before: string | null, limit: number) {
  return streamingRepliesQuery(db, before, limit).execute();
}

export function streamingRepliesQuery(db: Db, before: string | null, limit: number) {
  let q = db
    .selectFrom('conversation_messages')
    .select(['id', 'conversation_id', 'text'])
    .where('status', '=', 'streaming');
  if (before) q = q.where('updated_at', '<', before);
  return q.orderBy('updated_at').limit(limit);
}

/** Ends a reply that is still streaming (a writer that finished meanwhile wins); true when it did. */
export async function endStreamingReply(
  db: Db,
  id: string,
  set: Pick<ConversationMessagesTable, 'status' | 'text' | 'error' | 'updated_at'>,
): Promise<boolean> {
  const res = await db
    .updateTable('conversation_messages')
    .set({ ...set, seq: nextSeq(db) })
    .where('id', '=', id)
    .where('status', '=', 'streaming')
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

/** Writes the partial texts of several streaming replies in one transaction (one durable write). */
export async function updateTexts(db: Db, texts: Map<string, string>, now: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    for (const [id, text] of texts) await updateMessage(trx, id, { text, updated_at: now });
  });
}
