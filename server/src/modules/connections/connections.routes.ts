import {
  ZConnection,
  ZConnectionTestResult,
  ZCreateConnectionRequest,
  ZErrorBody,
  ZIdParams,
  ZUpdateConnectionRequest,
} from '@cc/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../platform/auth/authenticate.ts';
import type { AppContext } from '../../platform/context.ts';
import { viaOf } from '../activity/activity.ledger.ts';
import * as connections from './connections.service.ts';
import { registerConnectionWorker } from './connections.worker.ts';

const errors = {
  400: ZErrorBody,
  401: ZErrorBody,
  403: ZErrorBody,
  404: ZErrorBody,
  409: ZErrorBody,
  422: ZErrorBody,
};
const tags = ['connections'];

/** Profile → Connections (issue 49): the caller's calendars and mailboxes; the sync worker runs beside. */
export const connectionsRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  registerConnectionWorker(app, ctx);

  app.get(
    '/api/connections/',
    {
      schema: {
        tags,
        summary: "The caller's calendar and mail connections, with their sync status",
        response: { 200: z.array(ZConnection), ...errors },
      },
    },
    async (req) => connections.listConnections(ctx, currentUser(req)),
  );

  app.post(
    '/api/connections/',
    {
      schema: {
        tags,
        summary:
          'Connect a calendar (CalDAV, ICS address) or a mailbox (IMAP, read-only); it syncs in the background',
        body: ZCreateConnectionRequest,
        response: { 201: ZConnection, ...errors },
      },
    },
    async (req, reply) =>
      reply.code(201).send(await connections.createConnection(ctx, currentUser(req), req.body, viaOf(req))),
  );

  app.patch(
    '/api/connections/:id',
    {
      schema: {
        tags,
        summary: 'Rename a connection or change its address, credentials or the days of mail kept',
        params: ZIdParams,
        body: ZUpdateConnectionRequest,
        response: { 200: ZConnection, ...errors },
      },
    },
    async (req) => connections.updateConnection(ctx, currentUser(req), req.params.id, req.body),
  );

  app.delete(
    '/api/connections/:id',
    {
      schema: {
        tags,
        summary: 'Disconnect: the connection and everything imported from it are deleted',
        params: ZIdParams,
        response: { 204: z.null(), ...errors },
      },
    },
    async (req, reply) => {
      await connections.deleteConnection(ctx, currentUser(req), req.params.id, viaOf(req));
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/api/connections/:id/test',
    {
      schema: {
        tags,
        summary: 'Sign in to the server (or read the calendar address) without importing; says what happened',
        params: ZIdParams,
        response: { 200: ZConnectionTestResult, ...errors },
      },
    },
    async (req) => connections.testConnection(ctx, currentUser(req), req.params.id),
  );

  app.post(
    '/api/connections/:id/sync',
    {
      schema: {
        tags,
        summary: 'Sync now: the connection is due at once (the answer does not wait for the sync)',
        params: ZIdParams,
        response: { 202: ZConnection, ...errors },
      },
    },
    async (req, reply) =>
      reply.code(202).send(await connections.syncNow(ctx, currentUser(req), req.params.id)),
  );
};
