import {
  ZErrorBody,
  ZIdParams,
  ZInboxActionResponse,
  ZInboxApproveRequest,
  ZInboxCount,
  ZInboxDelegateRequest,
  ZInboxList,
  ZInboxListQuery,
  ZInboxRejectRequest,
} from '@cc/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../platform/auth/authenticate.ts';
import type { AppContext } from '../../platform/context.ts';
import { registryOf } from '../../platform/kind-registry.ts';
import { openSseStream } from '../../platform/realtime/sse.ts';
import * as inbox from './inbox.service.ts';

const errors = { 401: ZErrorBody, 403: ZErrorBody, 404: ZErrorBody, 409: ZErrorBody, 422: ZErrorBody };
const tags = ['inbox'];
const INBOX_TABLES = ['inbox_items'];

/** The approvals inbox: the caller's own items only (someone else's is 404). */
export interface InboxOptions {
  ctx: AppContext;
  /** The sources' own actions (docs/architecture.md, "Registrations"): acting here = acting there. */
  sources: readonly inbox.InboxSourceContribution[];
}

export const inboxRoutes: FastifyPluginAsyncZod<InboxOptions> = async (app, { ctx, sources }) => {
  const handlers = registryOf('inbox source', sources);
  app.get(
    '/api/inbox/',
    {
      schema: {
        tags,
        summary: 'Everything waiting for the caller, oldest first, with the total',
        querystring: ZInboxListQuery,
        response: { 200: ZInboxList, ...errors },
      },
      // A page depends only on the caller and inbox_items: served from the read cache until an item changes.
      config: { cache: INBOX_TABLES },
    },
    async (req) => inbox.listInbox(ctx, currentUser(req), req.query),
  );

  app.get(
    '/api/inbox/count',
    {
      schema: {
        tags,
        summary: 'How many items wait for the caller',
        response: { 200: ZInboxCount, ...errors },
      },
      config: { cache: INBOX_TABLES },
    },
    async (req) => inbox.countInbox(ctx, currentUser(req)),
  );

  app.get(
    '/api/inbox/events',
    {
      config: { auth: 'active', stream: true },
      schema: {
        tags,
        summary: 'Event stream of the caller’s inbox: a note each time the list or the count changes',
        querystring: z.object({ token: z.string().optional() }),
      },
    },
    async (req, reply) => {
      await openSseStream(req, reply, ctx, inbox.inboxStreamOptions(currentUser(req)));
    },
  );

  app.post(
    '/api/inbox/:id/approve',
    {
      schema: {
        tags,
        summary: 'Approve the item (optional `edits` of its details), as in its own screen',
        params: ZIdParams,
        body: ZInboxApproveRequest,
        response: { 200: ZInboxActionResponse, ...errors },
      },
    },
    async (req) =>
      inbox.approveInboxItem(ctx, currentUser(req), req.params.id, req.body.edits ?? {}, handlers),
  );

  app.post(
    '/api/inbox/:id/reject',
    {
      schema: {
        tags,
        summary: 'Reject the item with a non-blank reason, as in its own screen',
        params: ZIdParams,
        body: ZInboxRejectRequest,
        response: { 200: ZInboxActionResponse, ...errors },
      },
    },
    async (req) => inbox.rejectInboxItem(ctx, currentUser(req), req.params.id, req.body.reason, handlers),
  );

  app.post(
    '/api/inbox/:id/delegate',
    {
      schema: {
        tags,
        summary: 'Hand the item to another member of the same organization',
        params: ZIdParams,
        body: ZInboxDelegateRequest,
        response: { 200: ZInboxActionResponse, ...errors },
      },
    },
    async (req) => inbox.delegateInboxItem(ctx, currentUser(req), req.params.id, req.body.user_id),
  );
};
