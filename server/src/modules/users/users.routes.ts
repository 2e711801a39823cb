import {
  ZAdminCreateUserRequest,
  ZAdminUpdateUserRequest,
  ZErrorBody,
  ZIdParams,
  ZUpdateMeRequest,
  ZUser,
  ZUserListQuery,
} from '@cc/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../platform/auth/authenticate.ts';
import { viaOf } from '../activity/activity.ledger.ts';
import { preconditionOf } from '../../platform/concurrency.ts';
import type { AppContext } from '../../platform/context.ts';
import * as users from './users.service.ts';

const errors = { 400: ZErrorBody, 401: ZErrorBody, 403: ZErrorBody, 404: ZErrorBody, 409: ZErrorBody };

export const usersRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    '/api/users/me',
    {
      config: { auth: 'any', cache: ['profiles', 'organizations', 'organization_members'] },
      schema: {
        tags: ['users'],
        summary: 'The signed-in user with their profile',
        response: { 200: ZUser, ...errors },
      },
    },
    async (req) => users.getMe(ctx, currentUser(req)),
  );

  app.patch(
    '/api/users/me',
    {
      config: { auth: 'any' },
      schema: {
        tags: ['users'],
        summary: 'Update own profile fields, or change password (needs current_password)',
        body: ZUpdateMeRequest,
        response: { 200: ZUser, 429: ZErrorBody, ...errors },
      },
    },
    async (req) =>
      users.updateMe(ctx, currentUser(req), req.sessionId ?? '', req.body, viaOf(req), preconditionOf(req)),
  );

  app.get(
    '/api/users/',
    {
      config: { auth: 'admin' },
      schema: {
        tags: ['users'],
        summary: 'All users (admin)',
        querystring: ZUserListQuery,
        response: { 200: z.array(ZUser), ...errors },
      },
    },
    async (req) => users.listUsers(ctx, currentUser(req), req.query),
  );

  app.post(
    '/api/users/',
    {
      config: { auth: 'admin' },
      schema: {
        tags: ['users'],
        summary: 'Create a user (admin)',
        body: ZAdminCreateUserRequest,
        response: { 201: ZUser, ...errors },
      },
    },
    async (req, reply) =>
      reply.code(201).send(await users.adminCreateUser(ctx, currentUser(req), req.body, viaOf(req))),
  );

  app.patch(
    '/api/users/:id',
    {
      config: { auth: 'admin' },
      schema: {
        tags: ['users'],
        summary: 'Update a user (admin): changed fields only',
        params: ZIdParams,
        body: ZAdminUpdateUserRequest,
        response: { 200: ZUser, ...errors },
      },
    },
    async (req) =>
      users.adminUpdateUser(ctx, currentUser(req), req.params.id, req.body, viaOf(req), preconditionOf(req)),
  );

  app.delete(
    '/api/users/:id',
    {
      config: { auth: 'admin' },
      schema: {
        tags: ['users'],
        summary: 'Delete a user (admin)',
        params: ZIdParams,
        response: { 204: z.null(), ...errors },
      },
    },
    async (req, reply) => {
      await users.adminDeleteUser(ctx, currentUser(req), req.params.id, viaOf(req));
      return reply.code(204).send(null);
    },
  );
};
