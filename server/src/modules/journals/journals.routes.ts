import {
  ZCreateJournalRequest,
  ZErrorBody,
  ZIdParams,
  ZJournal,
  ZJournalListQuery,
  ZUpdateJournalRequest,
} from '@cc/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../platform/auth/authenticate.ts';
import { preconditionOf } from '../../platform/concurrency.ts';
import type { AppContext } from '../../platform/context.ts';
import * as journals from './journals.service.ts';

/** What the cached GET routes of this module read (see platform/response-cache.ts). */
const JOURNAL_TABLES = ['journals'];

const errors = { 401: ZErrorBody, 403: ZErrorBody, 404: ZErrorBody };
const tags = ['journals'];

export const journalsRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    '/api/journals',
    {
      config: { cache: JOURNAL_TABLES },
      schema: {
        tags,
        summary: "The caller's note entries, newest entry_date first (or oldest with sort=oldest)",
        querystring: ZJournalListQuery,
        response: { 200: z.array(ZJournal), ...errors },
      },
    },
    async (req) => journals.listJournals(ctx, currentUser(req), req.query),
  );

  app.post(
    '/api/journals',
    {
      schema: {
        tags,
        summary: 'Create a note entry (entry_date defaults to today, UTC)',
        body: ZCreateJournalRequest,
        response: { 201: ZJournal, ...errors },
      },
    },
    async (req, reply) => reply.code(201).send(await journals.createJournal(ctx, currentUser(req), req.body)),
  );

  app.get(
    '/api/journals/:id',
    {
      schema: {
        tags,
        summary: 'One of the caller’s note entries',
        params: ZIdParams,
        response: { 200: ZJournal, ...errors },
      },
    },
    async (req) => journals.getJournal(ctx, currentUser(req), req.params.id),
  );

  app.put(
    '/api/journals/:id',
    {
      schema: {
        tags,
        summary: 'Update a note entry',
        params: ZIdParams,
        body: ZUpdateJournalRequest,
        response: { 200: ZJournal, ...errors },
      },
    },
    async (req) =>
      journals.updateJournal(ctx, currentUser(req), req.params.id, req.body, preconditionOf(req)),
  );

  app.delete(
    '/api/journals/:id',
    {
      schema: {
        tags,
        summary: 'Delete a note entry',
        params: ZIdParams,
        response: { 204: z.null(), ...errors },
      },
    },
    async (req, reply) => {
      await journals.deleteJournal(ctx, currentUser(req), req.params.id);
      return reply.code(204).send(null);
    },
  );
};
