import { ZErrorBody } from '@cc/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../platform/auth/authenticate.ts';
import type { AppContext } from '../../platform/context.ts';
import { viaOf } from '../activity/activity.ledger.ts';
import { confirmEmailLink, resendVerification } from './email-ownership.service.ts';

/** The links e-mailed to prove an address: opened on /confirm-email, resent from the waitlist page. */
export const emailOwnershipRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const authLimit = { max: ctx.config.rateLimitAuthMax, timeWindow: '1 minute' };

  app.post(
    '/api/auth/email/confirm',
    {
      // The link's secret is the credential: it works in any browser, signed in or not.
      config: { auth: 'public', rateLimit: authLimit },
      schema: {
        tags: ['auth'],
        summary:
          "Confirm an address with the secret of the link e-mailed to it (sign-up, or a managed account's new e-mail)",
        body: z.strictObject({
          token: z.string().trim().min(1, 'The confirmation link is incomplete.').max(200),
        }),
        response: {
          200: z.object({ purpose: z.enum(['verify', 'change']), email: z.string() }),
          400: ZErrorBody,
          409: ZErrorBody,
          429: ZErrorBody,
        },
      },
    },
    async (req) => confirmEmailLink(ctx, req.body.token, viaOf(req)),
  );

  app.post(
    '/api/users/me/email-verification',
    {
      // Waitlisted accounts too: the waitlist page offers it.
      config: { auth: 'any', rateLimit: authLimit },
      schema: {
        tags: ['users'],
        summary: 'Send the link that verifies the e-mail address again',
        response: {
          200: z.object({ email_sent: z.boolean() }),
          401: ZErrorBody,
          403: ZErrorBody,
          409: ZErrorBody,
          429: ZErrorBody,
        },
      },
    },
    async (req) => resendVerification(ctx, currentUser(req)),
  );
};
