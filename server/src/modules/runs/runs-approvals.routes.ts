import {
  ZAnswerInterruptedCallRequest,
  ZApproveToolCallRequest,
  ZErrorBody,
  ZIdParams,
  ZRejectToolCallRequest,
  ZRunApprovalParams,
  ZToolApproval,
  ZToolApprovalList,
} from '@cc/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentUser } from '../../platform/auth/authenticate.ts';
import type { AppContext } from '../../platform/context.ts';
import * as approvals from './runs-approvals.service.ts';

const errors = { 401: ZErrorBody, 403: ZErrorBody, 404: ZErrorBody, 409: ZErrorBody, 422: ZErrorBody };
const tags = ['runs'];

/** The tool calls a crew or flow run waits on, and their decisions (issue 19 section 1). */
export const runApprovalsRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    '/api/runs/:id/approvals',
    {
      schema: {
        tags,
        summary: "The run's gated tool calls, oldest first (pending ones wait for a decision)",
        params: ZIdParams,
        response: { 200: ZToolApprovalList, ...errors },
      },
    },
    async (req) => approvals.listRunApprovals(ctx, currentUser(req), req.params.id),
  );
  app.post(
    '/api/runs/:id/approvals/:approvalId/approve',
    {
      schema: {
        tags,
        summary: 'Approve the call (optionally with edited arguments); the run resumes and makes it once',
        params: ZRunApprovalParams,
        body: ZApproveToolCallRequest,
        response: { 200: ZToolApproval, ...errors },
      },
    },
    async (req) =>
      approvals.approveToolCall(ctx, currentUser(req), req.params.approvalId, req.body?.edits, req.params.id),
  );
  app.post(
    '/api/runs/:id/approvals/:approvalId/reject',
    {
      schema: {
        tags,
        summary: "Reject the call: the reason becomes the tool's result and the run goes on",
        params: ZRunApprovalParams,
        body: ZRejectToolCallRequest,
        response: { 200: ZToolApproval, ...errors },
      },
    },
    async (req) =>
      approvals.rejectToolCall(ctx, currentUser(req), req.params.approvalId, req.body.reason, req.params.id),
  );
  app.post(
    '/api/runs/:id/approvals/:approvalId/answer',
    {
      schema: {
        tags,
        summary: 'Answer an interrupted call: it went through, it did not (sent once more), or stop the run',
        params: ZRunApprovalParams,
        body: ZAnswerInterruptedCallRequest,
        response: { 200: ZToolApproval, ...errors },
      },
    },
    async (req) =>
      approvals.answerInterruptedCall(
        ctx,
        currentUser(req),
        req.params.approvalId,
        req.body.answer,
        req.params.id,
      ),
  );
};
