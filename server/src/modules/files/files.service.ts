import type { ReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import type { TFileItem, ZFileListQuery, ZUpdateFileRequest } from '@cc/contract';
import type { z } from 'zod';
import { type Db, nowIso, withTx } from '../../db/index.ts';
import { containsPattern } from '../../db/search.ts';
import type { FilesTable } from '../../db/types.ts';
import { assertShareable } from '../../platform/access.ts';
import type { AuthUser } from '../../platform/auth/authenticate.ts';
import type { AppContext } from '../../platform/context.ts';
import { AppError, badRequest, forbidden, notFound } from '../../platform/errors.ts';
import { loadViewer, loadWithRights, type Viewer } from '../../platform/viewer.ts';
import { presentFile } from './files.presenter.ts';
import { ANY_VERSION, nextVersion, type Precondition } from '../../platform/concurrency.ts';
import { fileRights } from './files.policy.ts';
import * as repo from './files.repository.ts';
import { detectType, extractText, MAX_EXTRACTED_TEXT, sanitizeUploadName } from './files.sniff.ts';
import { fileStore, type StagedUpload } from './files.storage.ts';

const storeOf = (ctx: AppContext) => fileStore(ctx.config.filesDir);

/** The file, its shares and the caller's rights; 404 when the caller may not see it. */
async function load(ctx: AppContext, caller: AuthUser, id: string) {
  const { row, shares, viewer, rights } = await loadWithRights(ctx, caller, {
    find: () => repo.findFile(ctx.db, id),
    shares: async () => (await repo.sharesOf(ctx.db, [id])).get(id) ?? [],
    rights: (r, s, v) =>
      fileRights(
        r,
        s.map((x) => x.organization_id),
        v,
      ),
    missing: 'File not found',
  });
  return { row, viewer, shares, ...rights };
}

async function presentRows(ctx: AppContext, viewer: Viewer, rows: repo.FileRow[]) {
  const shares = await repo.sharesOf(
    ctx.db,
    rows.map((r) => r.id),
  );
  return rows.map((row) => {
    const s = shares.get(row.id) ?? [];
    const r = fileRights(
      row,
      s.map((x) => x.organization_id),
      viewer,
    );
    return presentFile(row, s, r);
  });
}

async function present(ctx: AppContext, caller: AuthUser, id: string): Promise<TFileItem> {
  const { row, viewer } = await load(ctx, caller, id);
  const [file] = await presentRows(ctx, viewer, [row]);
  return file;
}

export async function listFiles(
  ctx: AppContext,
  caller: AuthUser,
  q: z.output<typeof ZFileListQuery>,
  conversationId?: string,
): Promise<TFileItem[]> {
  const viewer = await loadViewer(ctx, caller);
  const rows = await repo.listFiles(ctx.db, {
    userId: viewer.id,
    orgIds: viewer.orgIds,
    search: q.search,
    conversationId,
    skip: q.skip,
    limit: q.limit,
  });
  return presentRows(ctx, viewer, rows);
}

export const getFile = present;

// ---- upload ----

export interface StagedFile extends StagedUpload {
  name: string;
}

/**
 * Streams one uploaded part to a temporary file and checks it: a usable name, not empty, within the
 * size limit. A refused part leaves nothing behind.
 */
export async function stageUpload(
  ctx: AppContext,
  rawName: string | undefined,
  stream: Readable,
  isTruncated: () => boolean,
): Promise<StagedFile> {
  const name = sanitizeUploadName(rawName);
  const store = storeOf(ctx);
  const staged = await store.stage(stream, isTruncated);
  const refuse = async (err: AppError) => {
    await store.discard(staged.tempPath);
    throw err;
  };
  if (staged.truncated) {
    return refuse(
      new AppError(
        413,
        `"${name ?? 'The file'}" is larger than the ${ctx.config.maxUploadMb} MB upload limit.`,
      ),
    );
  }
  if (!name) return refuse(badRequest('Every file needs a name (without slashes or control characters).'));
  if (staged.size === 0) return refuse(badRequest(`"${name}" is empty.`));
  return { ...staged, name };
}

export async function discardStaged(ctx: AppContext, staged: readonly StagedFile[]): Promise<void> {
  const store = storeOf(ctx);
  await Promise.all(staged.map((s) => store.discard(s.tempPath)));
}

/**
 * Moves staged uploads into place and records them in one transaction: all of them or none (files
 * already moved are removed again when the insert fails).
 */
export async function createFiles(
  ctx: AppContext,
  caller: AuthUser,
  staged: readonly StagedFile[],
  conversationId: string | null,
): Promise<TFileItem[]> {
  const store = storeOf(ctx);
  const now = nowIso();
  const rows: FilesTable[] = [];
  for (const s of staged) {
    const type = detectType(s.head, s.name, s.size <= s.head.length);
    const text =
      type.kind === 'text' ? extractText(await store.readStart(s.tempPath, MAX_EXTRACTED_TEXT * 4)) : null;
    rows.push({
      id: store.newStorageName(),
      user_id: caller.id,
      conversation_id: conversationId,
      name: s.name,
      storage_name: store.newStorageName(),
      content_type: type.contentType,
      kind: type.kind,
      size: s.size,
      sha256: s.sha256,
      text_content: text,
      created_at: now,
      updated_at: now,
    });
  }
  const moved: string[] = [];
  try {
    for (const [i, s] of staged.entries()) {
      await store.commit(s.tempPath, rows[i].storage_name);
      moved.push(rows[i].storage_name);
    }
    await withTx(ctx.db, (trx) => repo.insertFiles(trx, rows));
  } catch (err) {
    await Promise.all(moved.map((n) => store.remove(n)));
    await discardStaged(ctx, staged);
    throw err;
  }
  const viewer = await loadViewer(ctx, caller);
  const created = await Promise.all(rows.map((r) => repo.findFile(ctx.db, r.id)));
  return presentRows(
    ctx,
    viewer,
    created.filter((r) => r !== undefined),
  );
}

// ---- changes ----

export async function updateFile(
  ctx: AppContext,
  caller: AuthUser,
  id: string,
  body: z.output<typeof ZUpdateFileRequest>,
  pre: Precondition = ANY_VERSION,
): Promise<TFileItem> {
  const { row, viewer, shares, canEdit, canShare } = await load(ctx, caller, id);
  const shared = shares.map((s) => s.organization_id);
  if (body.name !== undefined && !canEdit) throw forbidden('Only the owner can rename this file.');
  let nextShares: string[] | null = null;
  if (body.shared_org_ids !== undefined) {
    const same =
      body.shared_org_ids.length === shared.length && body.shared_org_ids.every((x) => shared.includes(x));
    if (!same) {
      if (!canShare) throw forbidden('Only the owner can change who this file is shared with.');
      assertShareable(viewer.levels, body.shared_org_ids, shared);
      nextShares = body.shared_org_ids;
    }
  }
  pre.check(row.updated_at);
  const now = nextVersion(row.updated_at);
  await withTx(ctx.db, async (trx) => {
    await repo.updateFile(trx, id, {
      ...(body.name !== undefined ? { name: body.name } : {}),
      updated_at: now,
    });
    if (nextShares) await repo.replaceShares(trx, id, nextShares, now);
  });
  return present(ctx, caller, id);
}

export async function deleteFile(ctx: AppContext, caller: AuthUser, id: string): Promise<void> {
  const { row, canDelete } = await load(ctx, caller, id);
  if (!canDelete) throw forbidden('Only the owner can delete this file.');
  // The row goes first: a failed unlink leaves an unreachable file, never a row without bytes.
  await repo.deleteFile(ctx.db, id);
  await storeOf(ctx).remove(row.storage_name);
}

/**
 * Deletes an account's rows with `deleteRows` (the file rows cascade with the user), then the bytes of
 * the files it owned: first the rows, so a failed unlink leaves an unreachable file, never a row
 * without bytes.
 */
export async function deleteWithOwnedFiles(
  ctx: AppContext,
  userId: string,
  deleteRows: () => Promise<void>,
): Promise<void> {
  const names = await repo.storageNamesOf(ctx.db, userId);
  await deleteRows();
  const store = storeOf(ctx);
  for (const name of names) await store.remove(name);
}

/**
 * Deletes a conversation with `deleteRows` and, in the same transaction, the files attached in it;
 * their bytes are removed once that has committed (a failed unlink leaves an unreachable file, which
 * the start-up sweep removes, never a row without bytes).
 */
export async function deleteWithConversationFiles(
  ctx: AppContext,
  conversationId: string,
  deleteRows: (trx: Db) => Promise<void>,
): Promise<void> {
  const names = await withTx(ctx.db, async (trx) => {
    await deleteRows(trx);
    return repo.deleteConversationFiles(trx, conversationId);
  });
  const store = storeOf(ctx);
  for (const name of names) await store.remove(name);
}

/** How long a `.part` or unnamed stored file must be untouched before a sweep on a shared database removes it. */
export const STALE_FILE_MS = 60 * 60 * 1000;

/**
 * At start: removes `.part` files and stored bytes no row names. On an embedded SQLite database no
 * other process can be uploading, so every one goes; on PostgreSQL (FILES_DIR shared by instances)
 * only those untouched for {@link STALE_FILE_MS}.
 */
export function sweepStoredFiles(ctx: AppContext, opts: { all: boolean }) {
  const olderThan = opts.all ? Number.POSITIVE_INFINITY : Date.now() - STALE_FILE_MS;
  return storeOf(ctx).sweep(olderThan, (names) => repo.knownStorageNames(ctx.db, names));
}

// ---- reading ----

export interface OpenedFile {
  name: string;
  contentType: string;
  kind: string;
  size: number;
  stream: ReadStream;
}

export async function openFile(ctx: AppContext, caller: AuthUser, id: string): Promise<OpenedFile> {
  const { row } = await load(ctx, caller, id);
  const stream = storeOf(ctx).open(row.storage_name);
  // A missing file (lost storage) is a 404, not a crash mid-response.
  await new Promise<void>((resolve, reject) => {
    stream.once('open', () => resolve());
    stream.once('error', reject);
  }).catch(() => {
    throw notFound('The file content is missing.');
  });
  return {
    name: row.name,
    contentType: row.content_type,
    kind: row.kind,
    size: Number(row.size),
    stream,
  };
}

// ---- for the internal search and the model ----

export interface FileText {
  id: string;
  name: string;
  text: string;
}

/**
 * Files the caller may see whose name or extracted text contains `query` (case-insensitive), newest
 * first, with their text: the internal search and the chat's context use this.
 */
export async function searchFileText(
  ctx: AppContext,
  caller: AuthUser,
  query: string,
  limit = 10,
): Promise<FileText[]> {
  const pattern = containsPattern(query);
  if (!pattern) return [];
  const viewer = await loadViewer(ctx, caller);
  const rows = await repo.searchText(ctx.db, {
    userId: viewer.id,
    orgIds: viewer.orgIds,
    pattern,
    limit: Math.min(limit, 50),
  });
  return rows.map((r) => ({ id: r.id, name: r.name, text: r.text_content ?? '' }));
}

/** The text of the files attached in a conversation the caller may see (model context). */
export async function conversationFileTexts(
  ctx: AppContext,
  caller: AuthUser,
  conversationId: string,
  limit = 10,
): Promise<FileText[]> {
  // Most conversations have no attachments: one index probe spares them the visibility query.
  if (!(await repo.hasConversationFiles(ctx.db, conversationId))) return [];
  const viewer = await loadViewer(ctx, caller);
  const rows = await repo.conversationTexts(ctx.db, {
    userId: viewer.id,
    orgIds: viewer.orgIds,
    conversationId,
    limit,
  });
  return rows.map((r) => ({ id: r.id, name: r.name, text: r.text_content ?? '' }));
}
