import {
  ZAddOrgUserRequest,
  ZErrorBody,
  ZId,
  ZIdParams,
  ZOrgMember,
  ZOrganization,
  ZOrganizationName,
  ZUpdateOrgUserRequest,
} from '@cc/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../platform/auth/authenticate.ts';
import { viaOf } from '../activity/activity.ledger.ts';
import { preconditionOf } from '../../platform/concurrency.ts';
import type { AppContext } from '../../platform/context.ts';
import { invitationsRoutes } from './invitations.routes.ts';
import * as orgs from './organizations.service.ts';

/** What the cached GET routes of this module read (see platform/response-cache.ts). */
const ORGANIZATION_TABLES = ['organizations', 'organization_members'];

const errors = { 401: ZErrorBody, 403: ZErrorBody, 404: ZErrorBody, 409: ZErrorBody };
const ZMemberParams = z.object({ id: ZId, userId: ZId });
const tags = ['organizations'];

export interface OrganizationsOptions {
  ctx: AppContext;
  /** The users module's account functions (docs/architecture.md, "Registrations"). */
  accounts: orgs.MemberAccounts;
}

export const organizationsRoutes: FastifyPluginAsyncZod<OrganizationsOptions> = async (
  app,
  { ctx, accounts },
) => {
  await app.register(invitationsRoutes, { ctx });

  app.get(
    '/api/organizations',
    {
      config: { cache: ORGANIZATION_TABLES },
      schema: {
        tags,
        summary: "The caller's organizations (all for admin)",
        response: { 200: z.array(ZOrganization), ...errors },
      },
    },
    async (req) => orgs.listOrganizations(ctx, currentUser(req)),
  );

  app.post(
    '/api/organizations',
    {
      schema: {
        tags,
        summary: 'Create an organization (ceo, admin)',
        body: ZOrganizationName,
        response: { 201: ZOrganization, ...errors },
      },
    },
    async (req, reply) =>
      reply.code(201).send(await orgs.createOrganization(ctx, currentUser(req), req.body.name, viaOf(req))),
  );

  app.patch(
    '/api/organizations/:id',
    {
      schema: {
        tags,
        summary: 'Rename an organization',
        params: ZIdParams,
        body: ZOrganizationName,
        response: { 200: ZOrganization, ...errors },
      },
    },
    async (req) =>
      orgs.renameOrganization(ctx, currentUser(req), req.params.id, req.body.name, preconditionOf(req)),
  );

  app.delete(
    '/api/organizations/:id',
    {
      schema: {
        tags,
        summary: 'Delete an organization',
        params: ZIdParams,
        response: { 204: z.null(), ...errors },
      },
    },
    async (req, reply) => {
      await orgs.deleteOrganization(ctx, currentUser(req), req.params.id, viaOf(req));
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/api/organizations/:id/users',
    {
      schema: {
        tags,
        summary: 'Members and invites',
        params: ZIdParams,
        response: { 200: z.array(ZOrgMember), ...errors },
      },
    },
    async (req) => orgs.listMembers(ctx, currentUser(req), req.params.id, accounts),
  );

  app.post(
    '/api/organizations/:id/users',
    {
      schema: {
        tags,
        summary: 'Invite a person by e-mail: they join once they accept',
        params: ZIdParams,
        body: ZAddOrgUserRequest,
        response: { 201: ZOrgMember, ...errors },
      },
    },
    async (req, reply) =>
      reply
        .code(201)
        .send(await orgs.addMember(ctx, currentUser(req), req.params.id, req.body, viaOf(req), accounts)),
  );

  app.patch(
    '/api/organizations/:id/users/:userId',
    {
      schema: {
        tags,
        summary: 'Edit a member: access level, and account fields of accounts this organization manages',
        params: ZMemberParams,
        body: ZUpdateOrgUserRequest,
        response: { 200: ZOrgMember, ...errors },
      },
    },
    async (req) =>
      orgs.updateMember(
        ctx,
        currentUser(req),
        req.params.id,
        req.params.userId,
        req.body,
        viaOf(req),
        accounts,
        preconditionOf(req),
      ),
  );

  app.delete(
    '/api/organizations/:id/users/:userId',
    {
      schema: {
        tags,
        summary: 'Remove a member',
        params: ZMemberParams,
        response: { 204: z.null(), ...errors },
      },
    },
    async (req, reply) => {
      await orgs.removeMember(ctx, currentUser(req), req.params.id, req.params.userId, viaOf(req));
      return reply.code(204).send(null);
    },
  );
};
