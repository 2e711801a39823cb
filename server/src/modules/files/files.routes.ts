import multipart from '@fastify/multipart';
import {
  MAX_FILES_PER_UPLOAD,
  ZErrorBody,
  ZFileItem,
  ZFileListQuery,
  ZFileUploadQuery,
  ZIdParams,
  ZUpdateFileRequest,
} from '@cc/contract';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type AuthUser, currentUser } from '../../platform/auth/authenticate.ts';
import { preconditionOf } from '../../platform/concurrency.ts';
import type { AppContext } from '../../platform/context.ts';
import { AppError, badRequest } from '../../platform/errors.ts';
import { checkStorageQuota, enforceUploadLimit } from './files.quota.ts';
import * as files from './files.service.ts';
import { contentDisposition } from './files.sniff.ts';

const errors = { 400: ZErrorBody, 401: ZErrorBody, 403: ZErrorBody, 404: ZErrorBody };
const tags = ['files'];

/** Inline previews render in a sandbox with nothing allowed beyond the file itself. */
const PREVIEW_CSP = "default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; sandbox";
const INLINE_KINDS = new Set(['image', 'pdf', 'text']);

function sendFile(reply: FastifyReply, f: files.OpenedFile, disposition: 'attachment' | 'inline') {
  return reply
    .header('content-type', f.contentType)
    .header('content-length', String(f.size))
    .header('content-disposition', contentDisposition(disposition, f.name))
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', 'private, no-store')
    .header('content-security-policy', PREVIEW_CSP)
    .header('cross-origin-resource-policy', 'same-origin')
    .send(f.stream);
}

/** The multipart parser's limit errors, in words. */
function uploadError(err: unknown, maxMb: number): unknown {
  const code = (err as { code?: string }).code;
  if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT') {
    return new AppError(413, `At most ${MAX_FILES_PER_UPLOAD} files can be uploaded at once.`);
  }
  if (code === 'FST_REQ_FILE_TOO_LARGE') {
    return new AppError(413, `A file is larger than the ${maxMb} MB upload limit.`);
  }
  if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE') {
    return badRequest('Send the files as multipart/form-data.');
  }
  return err;
}

/**
 * What reading the parts threw: the parser's complaints about the body itself (no boundary, another
 * boundary, a body cut short, a broken part header) carry no code and are the client's fault: 400.
 * Our own errors, the plugin's coded ones (limits, see {@link uploadError}) and the file system's
 * (`ENOSPC`…) stay as they are.
 */
function malformedUpload(err: unknown): unknown {
  const e = err as { code?: unknown; syscall?: unknown };
  if (err instanceof AppError || typeof e.code === 'string' || e.syscall !== undefined) return err;
  return badRequest('The upload could not be read: the multipart body is malformed or was cut short.');
}

export interface FilesOptions {
  ctx: AppContext;
  /**
   * Throws 404 unless the caller owns the conversation (the conversations module's check, wired by
   * app.ts: conversations deletes its files, so this module must not import it back).
   */
  ownConversation: (ctx: AppContext, caller: AuthUser, conversationId: string) => Promise<unknown>;
}

export const filesRoutes: FastifyPluginAsyncZod<FilesOptions> = async (app, { ctx, ownConversation }) => {
  // Left-overs of a stopped server (half uploads, bytes whose row went) are removed before serving.
  app.addHook('onReady', async () => {
    const swept = await files
      .sweepStoredFiles(ctx, { all: ctx.dialect === 'sqlite' })
      .catch((err) => app.log.warn({ err }, 'file sweep failed'));
    if (swept && swept.parts + swept.orphans > 0) app.log.info(swept, 'removed left-over files');
  });
  const maxMb = ctx.config.maxUploadMb;
  // Scoped to this plugin: no other route accepts multipart bodies. The options also reach busboy
  // (defParamCharset is a busboy option the plugin's types do not list).
  const multipartOptions = {
    throwFileSizeLimit: false,
    // Browsers send file names as raw UTF-8 (busboy would read them as Latin-1).
    defParamCharset: 'utf8',
    limits: {
      fileSize: Math.floor(maxMb * 1024 * 1024),
      files: MAX_FILES_PER_UPLOAD,
      fields: 10,
      fieldSize: 1024,
      parts: MAX_FILES_PER_UPLOAD + 10,
      headerPairs: 100,
    },
  };
  await app.register(multipart, multipartOptions);

  app.get(
    '/api/files',
    {
      schema: {
        tags,
        summary: 'Files the caller owns or that are shared with their organizations, newest first',
        querystring: ZFileListQuery,
        response: { 200: z.array(ZFileItem), ...errors },
      },
    },
    async (req) => files.listFiles(ctx, currentUser(req), req.query),
  );

  app.post(
    '/api/files',
    {
      schema: {
        tags,
        summary: `Upload one or more files (multipart/form-data, at most ${MAX_FILES_PER_UPLOAD}, each within MAX_UPLOAD_MB)`,
        querystring: ZFileUploadQuery,
        response: { 201: z.array(ZFileItem), 413: ZErrorBody, 429: ZErrorBody, ...errors },
      },
    },
    async (req, reply) => {
      const caller = currentUser(req);
      if (!req.isMultipart()) throw badRequest('Send the files as multipart/form-data.');
      await enforceUploadLimit(ctx, caller, req, reply);
      const conversationId = req.query.conversation_id ?? null;
      if (conversationId) await ownConversation(ctx, caller, conversationId);
      const staged: files.StagedFile[] = [];
      try {
        try {
          for await (const part of req.parts()) {
            if (part.type !== 'file') continue;
            staged.push(
              await files.stageUpload(ctx, part.filename, part.file, () => part.file.truncated === true),
            );
          }
        } catch (err) {
          throw malformedUpload(err);
        }
        await checkStorageQuota(ctx, caller, staged);
      } catch (err) {
        await files.discardStaged(ctx, staged);
        throw uploadError(err, maxMb);
      }
      if (!staged.length) throw badRequest('No file was uploaded.');
      return reply.code(201).send(await files.createFiles(ctx, caller, staged, conversationId));
    },
  );

  app.get(
    '/api/files/:id',
    { schema: { tags, summary: 'One file', params: ZIdParams, response: { 200: ZFileItem, ...errors } } },
    async (req) => files.getFile(ctx, currentUser(req), req.params.id),
  );

  app.patch(
    '/api/files/:id',
    {
      schema: {
        tags,
        summary: 'Rename a file and/or replace its shared organizations (owner only)',
        params: ZIdParams,
        body: ZUpdateFileRequest,
        response: { 200: ZFileItem, ...errors },
      },
    },
    async (req) => files.updateFile(ctx, currentUser(req), req.params.id, req.body, preconditionOf(req)),
  );

  app.delete(
    '/api/files/:id',
    {
      schema: {
        tags,
        summary: 'Delete a file and its stored bytes (owner only)',
        params: ZIdParams,
        response: { 204: z.null(), ...errors },
      },
    },
    async (req, reply) => {
      await files.deleteFile(ctx, currentUser(req), req.params.id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/api/files/:id/download',
    {
      schema: {
        tags,
        summary: 'The file as an attachment, with its sniffed, allow-listed content type',
        params: ZIdParams,
        response: errors,
      },
    },
    async (req, reply) =>
      sendFile(reply, await files.openFile(ctx, currentUser(req), req.params.id), 'attachment'),
  );

  app.get(
    '/api/files/:id/preview',
    {
      schema: {
        tags,
        summary: 'Images, PDFs and text inline in a sandbox; anything else as an attachment',
        params: ZIdParams,
        response: errors,
      },
    },
    async (req, reply) => {
      const f = await files.openFile(ctx, currentUser(req), req.params.id);
      return sendFile(reply, f, INLINE_KINDS.has(f.kind) ? 'inline' : 'attachment');
    },
  );

  app.get(
    '/api/conversations/:id/attachments',
    {
      schema: {
        tags: [...tags, 'conversations'],
        summary: 'Files attached in a conversation, newest first',
        params: ZIdParams,
        querystring: ZFileListQuery,
        response: { 200: z.array(ZFileItem), ...errors },
      },
    },
    async (req) => {
      const caller = currentUser(req);
      await ownConversation(ctx, caller, req.params.id);
      return files.listFiles(ctx, caller, req.query, req.params.id);
    },
  );
};
