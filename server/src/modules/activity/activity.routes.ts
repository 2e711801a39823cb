import { Readable } from 'node:stream';
import {
  ZActivityEntry,
  ZActivityExportQuery,
  ZActivityList,
  ZActivityListQuery,
  ZErrorBody,
  ZIdParams,
} from '@cc/contract';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentUser } from '../../platform/auth/authenticate.ts';
import type { AppContext } from '../../platform/context.ts';
import { registryOf } from '../../platform/kind-registry.ts';
import { viaOf } from './activity.ledger.ts';
import * as activity from './activity.service.ts';
import type { ActorLookup, UndoContribution } from './activity.undo.ts';

const errors = { 400: ZErrorBody, 401: ZErrorBody, 403: ZErrorBody, 404: ZErrorBody, 422: ZErrorBody };
const tags = ['activity'];

const EXPORT_TYPES = { csv: 'text/csv; charset=utf-8', jsonl: 'application/x-ndjson; charset=utf-8' };

function sendExport(reply: FastifyReply, format: 'csv' | 'jsonl', stream: Readable) {
  return reply
    .header('content-type', EXPORT_TYPES[format])
    .header('content-disposition', `attachment; filename="activity.${format}"`)
    .header('cache-control', 'private, no-store')
    .send(stream);
}

export interface ActivityOptions {
  ctx: AppContext;
  /** The modules' undo handlers (docs/architecture.md, "Registrations"). */
  undo: readonly UndoContribution[];
  /** The users module's account lookup: an undo acts with the rights of the entry's actor. */
  actors: ActorLookup;
}

export const activityRoutes: FastifyPluginAsyncZod<ActivityOptions> = async (app, { ctx, undo, actors }) => {
  const undoDeps = { undo: registryOf('undo handler', undo), actors };
  app.get(
    '/api/activity/',
    {
      schema: {
        tags,
        summary: "The activity ledger: the caller's own entries (a platform admin: everyone's), newest first",
        querystring: ZActivityListQuery,
        response: { 200: ZActivityList, ...errors },
      },
    },
    async (req) => activity.listActivity(ctx, currentUser(req), req.query),
  );

  app.get(
    '/api/activity/export',
    {
      config: { auth: 'admin' },
      schema: {
        tags,
        summary: 'Export the activity ledger (platform admin): CSV or JSON lines, streamed',
        querystring: ZActivityExportQuery,
        response: errors,
      },
    },
    async (req, reply) => {
      const lines = activity.exportActivity(ctx, currentUser(req), req.query);
      const stream = Readable.from(lines);
      // A database fault mid-export ends the download; it must never surface as an unhandled error.
      stream.on('error', (err) => req.log.warn({ err }, 'activity export stopped'));
      return sendExport(reply, req.query.format, stream);
    },
  );

  app.post(
    '/api/activity/:id/undo',
    {
      schema: {
        tags,
        summary: 'Undo an AI write: restore its before-state and record the undo (409 if changed since)',
        params: ZIdParams,
        response: { 200: ZActivityEntry, 409: ZErrorBody, ...errors },
      },
    },
    async (req) => activity.undoActivity(ctx, currentUser(req), req.params.id, viaOf(req), undoDeps),
  );
};
