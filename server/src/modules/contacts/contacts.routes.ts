import {
  ZAssignableQuery,
  ZAssignableUser,
  ZContact,
  ZContactListQuery,
  ZCreateContactRequest,
  ZErrorBody,
  ZId,
  ZIdParams,
  ZInteractionRequest,
  ZPastInteraction,
  ZUpdateContactRequest,
} from '@cc/contract';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../platform/auth/authenticate.ts';
import { preconditionOf } from '../../platform/concurrency.ts';
import type { AppContext } from '../../platform/context.ts';
import { renderListEntriesAtStart } from '../../platform/list-entries.ts';
import { rendererOf } from './contacts.list-entry.ts';
import * as contacts from './contacts.service.ts';

/** What the cached GET routes of this module read (see platform/response-cache.ts). */
const CONTACT_TABLES = [
  'contacts',
  'contact_shares',
  'contact_interactions',
  'organization_members',
  'organizations',
];

const errors = { 400: ZErrorBody, 401: ZErrorBody, 403: ZErrorBody, 404: ZErrorBody };
const tags = ['contacts'];
const ZInteractionParams = z.object({ id: ZId, interactionId: ZId });

export const contactsRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  // Forgotten list entries are rendered before serving; later ones in the background.
  renderListEntriesAtStart(app, rendererOf(ctx), 'contact');
  app.get(
    '/api/contacts',
    {
      config: { cache: CONTACT_TABLES },
      schema: {
        tags,
        summary: "The caller's contacts and those shared with their organizations, by name",
        querystring: ZContactListQuery,
        response: { 200: z.array(ZContact), ...errors },
      },
    },
    // The page is JSON text already (stored list entries, contacts.list-entry.ts): sent as it is.
    async (req, reply) => {
      const body = await contacts.listContactsText(ctx, currentUser(req), req.query);
      // A string with a JSON content type skips the serializer (the response schema still documents it).
      return (reply as FastifyReply).type('application/json; charset=utf-8').send(body);
    },
  );

  app.get(
    '/api/contacts/assignable',
    {
      schema: {
        tags,
        summary: 'App users the caller can assign tasks to or message (members of their organizations)',
        querystring: ZAssignableQuery,
        response: { 200: z.array(ZAssignableUser), ...errors },
      },
    },
    async (req) => contacts.listAssignable(ctx, currentUser(req), req.query),
  );

  app.post(
    '/api/contacts',
    {
      schema: {
        tags,
        summary: 'Create a contact',
        body: ZCreateContactRequest,
        response: { 201: ZContact, ...errors },
      },
    },
    async (req, reply) => reply.code(201).send(await contacts.createContact(ctx, currentUser(req), req.body)),
  );

  app.get(
    '/api/contacts/:id',
    { schema: { tags, summary: 'One contact', params: ZIdParams, response: { 200: ZContact, ...errors } } },
    async (req) => contacts.getContact(ctx, currentUser(req), req.params.id),
  );

  app.patch(
    '/api/contacts/:id',
    {
      schema: {
        tags,
        summary: 'Update a contact: changed fields only (sharing: owner only)',
        params: ZIdParams,
        body: ZUpdateContactRequest,
        response: { 200: ZContact, ...errors },
      },
    },
    async (req) =>
      contacts.updateContact(ctx, currentUser(req), req.params.id, req.body, preconditionOf(req)),
  );

  app.delete(
    '/api/contacts/:id',
    {
      schema: {
        tags,
        summary: 'Delete a contact (owner only)',
        params: ZIdParams,
        response: { 204: z.null(), ...errors },
      },
    },
    async (req, reply) => {
      await contacts.deleteContact(ctx, currentUser(req), req.params.id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/api/contacts/:id/past-interactions',
    {
      schema: {
        tags,
        summary: 'Add a past interaction; returns the contact',
        params: ZIdParams,
        body: ZInteractionRequest,
        response: { 201: ZContact, ...errors },
      },
    },
    async (req, reply) =>
      reply.code(201).send(await contacts.addInteraction(ctx, currentUser(req), req.params.id, req.body)),
  );

  app.put(
    '/api/contacts/:id/past-interactions/:interactionId',
    {
      config: { echoes: ZPastInteraction },
      schema: {
        tags,
        summary: 'Edit a past interaction; returns the contact',
        params: ZInteractionParams,
        body: ZInteractionRequest,
        response: { 200: ZContact, ...errors },
      },
    },
    async (req) =>
      contacts.updateInteraction(
        ctx,
        currentUser(req),
        req.params.id,
        req.params.interactionId,
        req.body,
        preconditionOf(req),
      ),
  );

  app.delete(
    '/api/contacts/:id/past-interactions/:interactionId',
    {
      schema: {
        tags,
        summary: 'Delete a past interaction',
        params: ZInteractionParams,
        response: { 204: z.null(), ...errors },
      },
    },
    async (req, reply) => {
      await contacts.deleteInteraction(ctx, currentUser(req), req.params.id, req.params.interactionId);
      return reply.code(204).send(null);
    },
  );
};
