import type { Db } from '../../db/index.ts';
import { preparedQuery } from '../../db/prepared-query.ts';
import { containsPattern, lowerLike } from '../../db/search.ts';
import type { FilesTable } from '../../db/types.ts';
import { visibleFiles } from './files.policy.ts';

/**
 * Files with their owner's name and e-mail. Like contacts and tasks, this module reads `users` and
 * `organizations` read-only for presentation joins (one query per page).
 */
function selectFiles(db: Db) {
  return db
    .selectFrom('files')
    .innerJoin('users as owner', 'owner.id', 'files.user_id')
    .select([
      'files.id',
      'files.user_id',
      'files.conversation_id',
      'files.name',
      'files.storage_name',
      'files.content_type',
      'files.kind',
      'files.size',
      'files.created_at',
      'files.updated_at',
      'owner.email as owner_email',
      'owner.first_name as owner_first_name',
      'owner.last_name as owner_last_name',
    ]);
}

export type FileRow = NonNullable<Awaited<ReturnType<typeof findFile>>>;

export interface FileListOptions {
  userId: string;
  orgIds: readonly string[];
  search?: string;
  /** Only files attached in this conversation. */
  conversationId?: string;
  skip: number;
  limit: number;
}

/** Newest first, then id, so pages are stable. Search matches the name. */
export function listFilesQuery(db: Db, o: FileListOptions) {
  let q = selectFiles(db).where(visibleFiles({ id: o.userId, orgIds: o.orgIds }));
  if (o.conversationId !== undefined) q = q.where('files.conversation_id', '=', o.conversationId);
  const pattern = containsPattern(o.search);
  if (pattern) q = q.where(lowerLike('files.name', pattern));
  return q.orderBy('files.created_at', 'desc').orderBy('files.id', 'desc').offset(o.skip).limit(o.limit);
}

export function listFiles(db: Db, o: FileListOptions) {
  return listFilesQuery(db, o).execute();
}

export function findFile(db: Db, id: string) {
  return selectFiles(db).where('files.id', '=', id).executeTakeFirst();
}

export interface ShareRow {
  file_id: string;
  organization_id: string;
  name: string;
}

/** Shared organizations (with names, by name) of these files. */
export async function sharesOf(db: Db, fileIds: readonly string[]): Promise<Map<string, ShareRow[]>> {
  const out = new Map<string, ShareRow[]>(fileIds.map((id) => [id, []]));
  if (!fileIds.length) return out;
  const rows = await db
    .selectFrom('file_shares')
    .innerJoin('organizations', 'organizations.id', 'file_shares.organization_id')
    .select(['file_shares.file_id', 'file_shares.organization_id', 'organizations.name'])
    .where('file_shares.file_id', 'in', [...fileIds])
    .orderBy('file_shares.file_id')
    .orderBy('organizations.name')
    .orderBy('file_shares.organization_id')
    .execute();
  for (const r of rows) out.get(r.file_id)?.push(r);
  return out;
}

export async function insertFiles(db: Db, rows: FilesTable[]): Promise<void> {
  if (rows.length) await db.insertInto('files').values(rows).execute();
}

export async function updateFile(db: Db, id: string, set: Partial<FilesTable>): Promise<void> {
  await db.updateTable('files').set(set).where('id', '=', id).execute();
}

/** The stored names of every file a user owns (their bytes go when the account goes). */
export async function storageNamesOf(db: Db, userId: string): Promise<string[]> {
  const rows = await db.selectFrom('files').select('storage_name').where('user_id', '=', userId).execute();
  return rows.map((r) => r.storage_name);
}

/** Which of these stored names a row still holds (the start-up sweep of orphaned bytes). */
export async function knownStorageNames(db: Db, names: readonly string[]): Promise<Set<string>> {
  if (names.length === 0) return new Set();
  const rows = await db
    .selectFrom('files')
    .select('storage_name')
    .where('storage_name', 'in', names)
    .execute();
  return new Set(rows.map((r) => r.storage_name));
}

/** Deletes the files attached in a conversation; returns their stored names (to remove the bytes). */
export async function deleteConversationFiles(db: Db, conversationId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('files')
    .select('storage_name')
    .where('conversation_id', '=', conversationId)
    .execute();
  if (rows.length) await db.deleteFrom('files').where('conversation_id', '=', conversationId).execute();
  return rows.map((r) => r.storage_name);
}

export async function deleteFile(db: Db, id: string): Promise<void> {
  await db.deleteFrom('files').where('id', '=', id).execute();
}

export async function replaceShares(db: Db, fileId: string, orgIds: readonly string[], now: string) {
  await db.deleteFrom('file_shares').where('file_id', '=', fileId).execute();
  if (orgIds.length) {
    await db
      .insertInto('file_shares')
      .values(orgIds.map((organization_id) => ({ file_id: fileId, organization_id, created_at: now })))
      .execute();
  }
}

const conversationFileProbe = preparedQuery((db, p: { conversationId: string }) =>
  db.selectFrom('files').select('files.id').where('files.conversation_id', '=', p.conversationId).limit(1),
);

/** Whether any file was attached in this conversation (one probe of files_conversation_idx; prepared: every chat turn asks). */
export async function hasConversationFiles(db: Db, conversationId: string): Promise<boolean> {
  const rows = await conversationFileProbe(db, { conversationId });
  return rows.length > 0;
}

/**
 * The extracted text of the files attached in a conversation that the user may see, newest first:
 * what a chat turn gives the model, in one indexed query (no presentation joins).
 */
export function conversationTexts(
  db: Db,
  o: { userId: string; orgIds: readonly string[]; conversationId: string; limit: number },
) {
  return db
    .selectFrom('files')
    .select(['files.id', 'files.name', 'files.text_content'])
    .where(visibleFiles({ id: o.userId, orgIds: o.orgIds }))
    .where('files.conversation_id', '=', o.conversationId)
    .where('files.text_content', 'is not', null)
    .orderBy('files.created_at', 'desc')
    .orderBy('files.id', 'desc')
    .limit(o.limit)
    .execute();
}

export interface TextSearchOptions {
  userId: string;
  orgIds: readonly string[];
  pattern: string;
  limit: number;
}

/** Visible files whose name or extracted text contains the pattern, newest first. */
export function searchText(db: Db, o: TextSearchOptions) {
  return db
    .selectFrom('files')
    .innerJoin('users as owner', 'owner.id', 'files.user_id')
    .select(['files.id', 'files.name', 'files.text_content', 'files.created_at'])
    .where(visibleFiles({ id: o.userId, orgIds: o.orgIds }))
    .where((eb) => eb.or([lowerLike('files.name', o.pattern), lowerLike('files.text_content', o.pattern)]))
    .orderBy('files.created_at', 'desc')
    .limit(o.limit)
    .execute();
}

/** Bytes of every file a user owns (the storage quota counts these; served by files_user_idx). */
export async function storageUsedBy(db: Db, userId: string): Promise<number> {
  const row = await db
    .selectFrom('files')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number | string>('size'), eb.lit(0)).as('used'))
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(row?.used ?? 0);
}
