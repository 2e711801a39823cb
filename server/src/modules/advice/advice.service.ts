import { randomUUID } from 'node:crypto';
import type {
  TAdvice,
  ZAdviceFeedbackRequest,
  ZAdviceListQuery,
  ZCreateAdviceRequest,
  ZUpdateAdviceRequest,
} from '@cc/contract';
import type { z } from 'zod';
import { nowIso } from '../../db/index.ts';
import type { StrategicAdviceTable } from '../../db/types.ts';
import { assertMemberOf } from '../../platform/access.ts';
import type { AuthUser } from '../../platform/auth/authenticate.ts';
import type { AppContext } from '../../platform/context.ts';
import { forbidden } from '../../platform/errors.ts';
import { loadViewer, loadWithRights } from '../../platform/viewer.ts';
import { adviceRights } from './advice.policy.ts';
import { parseCitations, visibleCitations } from '../../ai/citations.ts';
import type { Viewer } from '../../platform/viewer.ts';
import { presentAdvice } from './advice.presenter.ts';
import { ANY_VERSION, nextVersion, type Precondition } from '../../platform/concurrency.ts';
import * as repo from './advice.repository.ts';

/** The advice and the caller's rights; 404 when the caller may not see it. */
async function load(ctx: AppContext, caller: AuthUser, id: string) {
  const { row, viewer, rights } = await loadWithRights(ctx, caller, {
    find: () => repo.findAdvice(ctx.db, id),
    rights: (advice, _none, v) => adviceRights(advice, v),
    missing: 'Advice not found',
  });
  return { row, viewer, levels: viewer.levels, ...rights };
}

async function editable(ctx: AppContext, caller: AuthUser, id: string) {
  const a = await load(ctx, caller, id);
  if (!a.canEdit) throw forbidden('You cannot change this advice.');
  return a;
}

export async function listAdvice(
  ctx: AppContext,
  caller: AuthUser,
  q: z.output<typeof ZAdviceListQuery>,
): Promise<TAdvice[]> {
  const viewer = await loadViewer(ctx, caller);
  assertMemberOf(viewer.levels, q.organization_id);
  const rows = await repo.listAdvice(ctx.db, {
    userId: viewer.id,
    orgIds: viewer.orgIds,
    organizationId: q.organization_id,
    skip: q.skip,
    limit: q.limit,
  });
  return Promise.all(
    rows.map(async (r) => presentAdvice(r, adviceRights(r, viewer), await citedFor(ctx, viewer, r))),
  );
}

/** The advice's citations the viewer may see (advice filed under an organization has other readers). */
function citedFor(ctx: AppContext, viewer: Viewer, row: StrategicAdviceTable) {
  return visibleCitations(ctx, viewer, parseCitations(row.citations));
}

export async function getAdvice(ctx: AppContext, caller: AuthUser, id: string): Promise<TAdvice> {
  const { row, canEdit, viewer } = await load(ctx, caller, id);
  return presentAdvice(row, { canEdit }, await citedFor(ctx, viewer, row));
}

export async function createAdvice(
  ctx: AppContext,
  caller: AuthUser,
  body: z.output<typeof ZCreateAdviceRequest>,
): Promise<TAdvice> {
  assertMemberOf((await loadViewer(ctx, caller)).levels, body.organization_id);
  const now = nowIso();
  const row: StrategicAdviceTable = {
    id: randomUUID(),
    user_id: caller.id,
    organization_id: body.organization_id ?? null,
    advice_title: body.advice_title ?? null,
    content: body.content,
    feedback: body.feedback ?? null,
    crew_run_id: body.crew_run_id ?? null,
    created_at: now,
    updated_at: now,
  };
  await repo.insertAdvice(ctx.db, row);
  return presentAdvice(row, { canEdit: true });
}

export async function updateAdvice(
  ctx: AppContext,
  caller: AuthUser,
  id: string,
  body: z.output<typeof ZUpdateAdviceRequest>,
  pre: Precondition = ANY_VERSION,
): Promise<TAdvice> {
  const { row, levels } = await editable(ctx, caller, id);
  pre.check(row.updated_at);
  if (body.organization_id !== undefined && body.organization_id !== row.organization_id) {
    assertMemberOf(levels, body.organization_id);
  }
  const set: Partial<StrategicAdviceTable> = {
    content: body.content,
    updated_at: nextVersion(row.updated_at),
  };
  if (body.advice_title !== undefined) set.advice_title = body.advice_title;
  if (body.feedback !== undefined) set.feedback = body.feedback;
  if (body.crew_run_id !== undefined) set.crew_run_id = body.crew_run_id;
  if (body.organization_id !== undefined) set.organization_id = body.organization_id;
  await repo.updateAdvice(ctx.db, id, set);
  return getAdvice(ctx, caller, id);
}

export async function setFeedback(
  ctx: AppContext,
  caller: AuthUser,
  id: string,
  body: z.output<typeof ZAdviceFeedbackRequest>,
  pre: Precondition = ANY_VERSION,
): Promise<TAdvice> {
  const { row } = await editable(ctx, caller, id);
  pre.check(row.updated_at);
  await repo.updateAdvice(ctx.db, id, { feedback: body.feedback, updated_at: nextVersion(row.updated_at) });
  return getAdvice(ctx, caller, id);
}

export async function deleteAdvice(ctx: AppContext, caller: AuthUser, id: string): Promise<void> {
  await editable(ctx, caller, id);
  await repo.deleteAdvice(ctx.db, id);
}
