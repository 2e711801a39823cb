import { ZErrorBody, ZIdParams, ZInvitation } from '@cc/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../platform/auth/authenticate.ts';
import { viaOf } from '../activity/activity.ledger.ts';
import type { AppContext } from '../../platform/context.ts';
import * as memberships from './memberships.service.ts';

// The invitee's side of an invitation. The routes keep the default `active` auth: a waitlisted account
// sees and claims its invitations only once approved.
const errors = { 401: ZErrorBody, 403: ZErrorBody, 404: ZErrorBody, 409: ZErrorBody };
const tags = ['users'];

export const invitationsRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    '/api/users/me/invitations',
    {
      schema: {
        tags,
        summary: "The signed-in person's pending organization invitations",
        response: { 200: z.array(ZInvitation), ...errors },
      },
    },
    async (req) => memberships.listMyInvitations(ctx, currentUser(req)),
  );

  app.post(
    '/api/users/me/invitations/:id/accept',
    {
      schema: {
        tags,
        summary: 'Accept an invitation: become a member at the level it offers',
        params: ZIdParams,
        response: { 204: z.null(), ...errors },
      },
    },
    async (req, reply) => {
      await memberships.acceptInvitation(ctx, currentUser(req), req.params.id, viaOf(req));
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/api/users/me/invitations/claim',
    {
      schema: {
        tags,
        summary: 'Accept the invitation whose e-mailed link (its one-time secret) the person opened',
        body: z.strictObject({
          token: z.string().trim().min(1, 'The invitation link is incomplete.').max(200),
        }),
        response: {
          200: z.object({ organization_id: z.string(), organization_name: z.string() }),
          ...errors,
        },
      },
    },
    async (req) => memberships.claimInvitation(ctx, currentUser(req), req.body.token, viaOf(req)),
  );

  app.post(
    '/api/users/me/invitations/:id/decline',
    {
      schema: {
        tags,
        summary: 'Decline an invitation',
        params: ZIdParams,
        response: { 204: z.null(), ...errors },
      },
    },
    async (req, reply) => {
      await memberships.declineInvitation(ctx, currentUser(req), req.params.id, viaOf(req));
      return reply.code(204).send(null);
    },
  );
};
