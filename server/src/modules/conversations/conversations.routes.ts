import {
  ZChatRequest,
  ZChatResponse,
  ZChatStopResponse,
  ZConversation,
  ZConversationListQuery,
  ZCreateConversationRequest,
  ZErrorBody,
  ZIdParams,
  ZMessagesPage,
  ZMessagesQuery,
  ZUpdateConversationRequest,
  ZEventCursor,
} from '@cc/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../platform/auth/authenticate.ts';
import { preconditionOf } from '../../platform/concurrency.ts';
import type { AppContext } from '../../platform/context.ts';
import { limitMessages } from '../../platform/limits/limit-messages.ts';
import { enforceLimit } from '../../platform/limits/limits.ts';
import { openSseStream } from '../../platform/realtime/sse.ts';
import { chat, stopAllReplies, stopChat } from './conversations.chat.ts';
import * as conversations from './conversations.service.ts';
import { registerReplySweeper } from './conversations.sweeper.ts';

/** What the cached GET routes of this module read (see platform/response-cache.ts). */
const CONVERSATION_TABLES = ['conversations', 'conversation_messages'];

const errors = { 401: ZErrorBody, 403: ZErrorBody, 404: ZErrorBody };
const tags = ['conversations'];

export const conversationsRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  // Replies still streaming are stopped and written before the server and the database close; replies
  // a stopped server left streaming are ended at start and by a periodic sweep.
  app.addHook('preClose', () => stopAllReplies(ctx));
  registerReplySweeper(app, ctx);

  app.get(
    '/api/conversations',
    {
      config: { cache: CONVERSATION_TABLES },
      schema: {
        tags,
        summary: "The caller's AI conversations, most recently updated first",
        querystring: ZConversationListQuery,
        response: { 200: z.array(ZConversation), ...errors },
      },
    },
    async (req) => conversations.listConversations(ctx, currentUser(req), req.query),
  );

  app.post(
    '/api/conversations',
    {
      schema: {
        tags,
        summary: 'Start a conversation (name defaults to "New Conversation")',
        body: ZCreateConversationRequest,
        response: { 201: ZConversation, ...errors },
      },
    },
    async (req, reply) =>
      reply.code(201).send(await conversations.createConversation(ctx, currentUser(req), req.body)),
  );

  app.get(
    '/api/conversations/:id',
    {
      schema: {
        tags,
        summary: 'One of the caller’s conversations',
        params: ZIdParams,
        response: { 200: ZConversation, ...errors },
      },
    },
    async (req) => conversations.getConversation(ctx, currentUser(req), req.params.id),
  );

  app.put(
    '/api/conversations/:id',
    {
      schema: {
        tags,
        summary: 'Rename a conversation',
        params: ZIdParams,
        body: ZUpdateConversationRequest,
        response: { 200: ZConversation, ...errors },
      },
    },
    async (req) =>
      conversations.renameConversation(ctx, currentUser(req), req.params.id, req.body, preconditionOf(req)),
  );

  app.delete(
    '/api/conversations/:id',
    {
      schema: {
        tags,
        summary: 'Delete a conversation and its messages',
        params: ZIdParams,
        response: { 204: z.null(), ...errors },
      },
    },
    async (req, reply) => {
      await conversations.deleteConversation(ctx, currentUser(req), req.params.id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/api/conversations/:id/messages',
    {
      config: { cache: CONVERSATION_TABLES },
      schema: {
        tags,
        summary: 'A page of messages, oldest first: the latest page, or the one before a position',
        params: ZIdParams,
        querystring: ZMessagesQuery,
        response: { 200: ZMessagesPage, ...errors },
      },
    },
    async (req) => conversations.listMessages(ctx, currentUser(req), req.params.id, req.query),
  );

  app.post(
    '/api/conversations/:id/chat',
    {
      schema: {
        tags,
        summary: 'Send a message; the reply streams on the events stream and is answered when complete',
        params: ZIdParams,
        body: ZChatRequest,
        response: { 200: ZChatResponse, 409: ZErrorBody, 429: ZErrorBody, ...errors },
      },
    },
    async (req, reply) => {
      const { chatTurns } = ctx.limits;
      enforceLimit(req, reply, chatTurns, limitMessages.chatTurns(chatTurns.max));
      // The client going away (the web's stop button aborts this request) stops the model call.
      const gone = new AbortController();
      reply.raw.on('close', () => {
        if (!reply.raw.writableEnded) gone.abort();
      });
      return chat(ctx, currentUser(req), req.params.id, req.body, gone.signal, req.log);
    },
  );

  app.post(
    '/api/conversations/:id/chat/stop',
    {
      schema: {
        tags,
        summary: 'Stop the reply being written (its partial text is kept)',
        params: ZIdParams,
        response: { 200: ZChatStopResponse, ...errors },
      },
    },
    async (req) => stopChat(ctx, currentUser(req), req.params.id),
  );

  app.get(
    '/api/conversations/:id/events',
    {
      config: { auth: 'active', stream: true },
      schema: {
        tags,
        summary:
          'Event stream: `message` events (sender, text, timestamp, crew_run_id; id = resume cursor) and `delta` events while a reply streams',
        params: ZIdParams,
        querystring: z.object({ token: z.string().optional(), last_event_id: ZEventCursor.optional() }),
      },
    },
    async (req, reply) => {
      const id = req.params.id;
      await conversations.ownConversation(ctx, currentUser(req), id);
      await openSseStream(req, reply, ctx, conversations.conversationStreamOptions(ctx, id));
    },
  );
};
