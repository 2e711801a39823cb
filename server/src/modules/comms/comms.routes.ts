import {
  ZCommsMessage,
  ZCommsSuggestion,
  ZCommsSuggestionResponse,
  ZCommsThread,
  ZCreateThreadRequest,
  ZErrorBody,
  ZIdParams,
  ZMessageListQuery,
  ZPutSuggestionRequest,
  ZRenameThreadRequest,
  ZSendMessageRequest,
  ZThreadListQuery,
  ZUseSuggestionRequest,
} from '@cc/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../platform/auth/authenticate.ts';
import type { AppContext } from '../../platform/context.ts';
import { background } from './comms.background.ts';
import * as messages from './comms.messages.ts';
import * as comms from './comms.service.ts';
import { streamThread } from './comms.stream.ts';
import * as suggestions from './comms.suggestions.ts';

const errors = { 400: ZErrorBody, 401: ZErrorBody, 403: ZErrorBody, 404: ZErrorBody };
const tags = ['comms'];
const thread = '/api/comms/threads/:id';

export const commsRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const bg = background(ctx);
  bg.log = (err, msg) => app.log.warn({ err }, msg);
  // Scripted replies not yet sent are dropped; suggestions being written finish before the DB closes.
  app.addHook('preClose', async () => bg.close());

  app.get(
    '/api/comms/threads',
    {
      schema: {
        tags,
        summary: "The caller's conversations, newest first",
        querystring: ZThreadListQuery,
        response: { 200: z.array(ZCommsThread), ...errors },
      },
    },
    async (req) => comms.listThreads(ctx, currentUser(req), req.query),
  );

  app.post(
    '/api/comms/threads',
    {
      schema: {
        tags,
        summary: 'Open the conversation with these people (the existing one for the same people is reused)',
        body: ZCreateThreadRequest,
        response: { 200: ZCommsThread, 201: ZCommsThread, ...errors },
      },
    },
    async (req, reply) => {
      const { thread: t, created } = await comms.createThread(ctx, currentUser(req), req.body);
      return reply.code(created ? 201 : 200).send(t);
    },
  );

  app.get(
    thread,
    {
      schema: {
        tags,
        summary: 'One conversation',
        params: ZIdParams,
        response: { 200: ZCommsThread, ...errors },
      },
    },
    async (req) => comms.getThread(ctx, currentUser(req), req.params.id),
  );

  app.patch(
    thread,
    {
      schema: {
        tags,
        summary: "Edit Name: the caller's own name for the conversation (blank restores the default)",
        params: ZIdParams,
        body: ZRenameThreadRequest,
        response: { 200: ZCommsThread, ...errors },
      },
    },
    async (req) => comms.renameThread(ctx, currentUser(req), req.params.id, req.body),
  );

  app.delete(
    thread,
    {
      schema: {
        tags,
        summary: 'Delete Chat: removes the conversation and its history for the caller',
        params: ZIdParams,
        response: { 204: z.null(), ...errors },
      },
    },
    async (req, reply) => {
      await comms.deleteThread(ctx, currentUser(req), req.params.id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    `${thread}/messages`,
    {
      schema: {
        tags,
        summary: 'Messages, oldest first: the latest page, or the page before `before` (a seq)',
        params: ZIdParams,
        querystring: ZMessageListQuery,
        response: { 200: z.array(ZCommsMessage), ...errors },
      },
    },
    async (req) => comms.listMessages(ctx, currentUser(req), req.params.id, req.query),
  );

  app.post(
    `${thread}/messages`,
    {
      schema: {
        tags,
        summary: 'Send a message',
        params: ZIdParams,
        body: ZSendMessageRequest,
        response: { 201: ZCommsMessage, ...errors },
      },
    },
    async (req, reply) =>
      reply.code(201).send(await messages.sendMessage(ctx, currentUser(req), req.params.id, req.body.text)),
  );

  app.get(
    `${thread}/events`,
    {
      config: { auth: 'active', stream: true },
      schema: { tags, summary: 'Stream of new messages (SSE; ?token= a stream ticket)', params: ZIdParams },
    },
    async (req, reply) => streamThread(ctx, currentUser(req), req.params.id, req, reply),
  );

  app.get(
    `${thread}/suggestion`,
    {
      schema: {
        tags,
        summary: "The caller's suggested reply (pending while it is written), or null",
        params: ZIdParams,
        response: { 200: ZCommsSuggestionResponse, ...errors },
      },
    },
    async (req) => ({ suggestion: await suggestions.getSuggestion(ctx, currentUser(req), req.params.id) }),
  );

  app.put(
    `${thread}/suggestion`,
    {
      schema: {
        tags,
        summary: 'Set the caller’s suggested reply (a suggestion brought from another screen)',
        params: ZIdParams,
        body: ZPutSuggestionRequest,
        response: { 200: ZCommsSuggestion, ...errors },
      },
    },
    async (req) => suggestions.putSuggestion(ctx, currentUser(req), req.params.id, req.body),
  );

  app.post(
    `${thread}/suggestion/use`,
    {
      schema: {
        tags,
        summary: 'Use Suggestion: send the (edited) text as a message',
        params: ZIdParams,
        body: ZUseSuggestionRequest,
        response: { 201: ZCommsMessage, ...errors },
      },
    },
    async (req, reply) =>
      reply.code(201).send(await messages.useSuggestion(ctx, currentUser(req), req.params.id, req.body.text)),
  );

  app.post(
    `${thread}/suggestion/dismiss`,
    {
      schema: {
        tags,
        summary: 'Ignore: drop the suggestion; adds "AI suggestion dismissed by user." for the caller',
        params: ZIdParams,
        response: { 201: ZCommsMessage, ...errors },
      },
    },
    async (req, reply) =>
      reply.code(201).send(await messages.dismissSuggestion(ctx, currentUser(req), req.params.id)),
  );
};
