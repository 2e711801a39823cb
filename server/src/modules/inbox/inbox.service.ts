import { randomUUID } from 'node:crypto';
import {
  INBOX_ALREADY_SETTLED,
  INBOX_CHANGED_EVENT,
  INBOX_DELEGATE_SAME_ORG,
  INBOX_NOT_FOUND,
  type TInboxActionResponse,
  type TInboxCount,
  type TInboxKind,
  type TInboxItem,
  type TInboxList,
  ZInboxListQuery,
} from '@cc/contract';
import { nowIso } from '../../db/index.ts';
import type { InboxItemsTable } from '../../db/types.ts';
import type { AuthUser } from '../../platform/auth/authenticate.ts';
import type { AppContext } from '../../platform/context.ts';
import { AppError, conflict, notFound } from '../../platform/errors.ts';
import type { Contribution, KindRegistry } from '../../platform/kind-registry.ts';
import type { SseStreamOptions } from '../../platform/realtime/sse.ts';
import { membershipLevelsOf } from '../organizations/memberships.service.ts';
import { getUserSummary } from '../users/users.service.ts';
import { canActOn, mayDelegateTo } from './inbox.policy.ts';
import { presentInboxItem } from './inbox.presenter.ts';
import * as repo from './inbox.repository.ts';

/** What a source opens: one thing waiting for `assigneeUserId`. */
export interface NewInboxItem {
  kind: TInboxKind;
  sourceType: string;
  sourceId: string;
  sourceUrl: string;
  assigneeUserId: string;
  organizationId?: string | null;
  title: string;
  summary: string;
  details: Record<string, unknown>;
}

export interface InboxOutcome {
  status: 'approved' | 'rejected' | 'resolved';
  resolvedBy: string | null;
  reason?: string | null;
}

/**
 * A source's own actions, called when its item is acted on in the inbox (so acting there is the same
 * as acting in the source's screen). `actor` is who acts (the assignee, perhaps by delegation); the
 * handler acts as the source's owner. It throws the source's own errors (422 bad edits, 409 settled).
 */
export interface InboxHandler {
  approve(ctx: AppContext, actor: AuthUser, sourceId: string, edits: Record<string, unknown>): Promise<void>;
  reject(ctx: AppContext, actor: AuthUser, sourceId: string, reason: string): Promise<void>;
}

/**
 * The sources of one app, by item kind: each source module registers its handler
 * (`registerRunInboxSources`, …) and `app.ts` lists them, so the inbox imports none of its sources.
 */
export type InboxSources = KindRegistry<InboxHandler, TInboxKind>;
export type InboxSourceContribution = Contribution<InboxHandler, TInboxKind>;

/** The per-user bus channel: every change of someone's inbox is a note here (list and count reload). */
export const inboxChannel = (userId: string) => `inbox:${userId}`;

async function changed(ctx: AppContext, ...userIds: string[]): Promise<void> {
  for (const id of new Set(userIds)) await ctx.bus.publish(inboxChannel(id), { kind: INBOX_CHANGED_EVENT });
}

/** A source starts waiting for a person (call after its own write is committed). */
export async function openInboxItem(ctx: AppContext, item: NewInboxItem): Promise<void> {
  const row = await repo.openItem(ctx.db, {
    id: randomUUID(),
    kind: item.kind,
    source_type: item.sourceType,
    source_id: item.sourceId,
    source_url: item.sourceUrl,
    assignee_user_id: item.assigneeUserId,
    organization_id: item.organizationId ?? null,
    title: item.title.slice(0, 500),
    summary: item.summary.slice(0, 2000),
    details: JSON.stringify(item.details),
    created_at: nowIso(),
  });
  await changed(ctx, row.assignee_user_id);
}

/** The source's wait is over (settled in its own screen or in the inbox): the item leaves the inbox. */
export async function resolveInboxItem(
  ctx: AppContext,
  kind: TInboxKind,
  sourceId: string,
  outcome: InboxOutcome,
): Promise<void> {
  const row = await repo.resolveItem(ctx.db, kind, sourceId, {
    status: outcome.status,
    resolved_at: nowIso(),
    resolved_by: outcome.resolvedBy,
    reason: outcome.reason ?? null,
  });
  if (row) await changed(ctx, row.assignee_user_id);
}

export async function listInbox(
  ctx: AppContext,
  caller: AuthUser,
  page: { skip: number; limit: number },
): Promise<TInboxList> {
  const { rows, total } = await repo.pendingPage(ctx.db, caller.id, page.skip, page.limit);
  return { items: rows.map(presentInboxItem), total };
}

/**
 * What `GET /api/inbox/` answers the person without a query (its default page and the total): the
 * brief's "Waiting for you" lists exactly this, so the two never disagree.
 */
export async function firstInboxPageOf(ctx: AppContext, userId: string): Promise<TInboxList> {
  const page = ZInboxListQuery.parse({});
  const { rows, total } = await repo.pendingPage(ctx.db, userId, page.skip, page.limit);
  return { items: rows.map(presentInboxItem), total };
}

/** The person's pending items, oldest first, at most `limit` (what the AI's "what should I do" acts on). */
export async function pendingItemsOf(ctx: AppContext, userId: string, limit: number): Promise<TInboxItem[]> {
  const rows = await repo.listPendingQuery(ctx.db, userId, 0, limit).execute();
  return rows.map(presentInboxItem);
}

export async function countInbox(ctx: AppContext, caller: AuthUser): Promise<TInboxCount> {
  return { count: await repo.countPending(ctx.db, caller.id) };
}

/** The caller's pending item: someone else's is 404 (never leak existence), a settled one 409. */
async function pendingItem(ctx: AppContext, caller: AuthUser, id: string): Promise<InboxItemsTable> {
  const item = await repo.findItem(ctx.db, id);
  if (!item || !canActOn(item, caller.id)) throw notFound(INBOX_NOT_FOUND);
  if (item.status !== 'pending') throw conflict(INBOX_ALREADY_SETTLED);
  return item;
}

function handlerOf(sources: InboxSources, item: InboxItemsTable): InboxHandler {
  const handler = sources.get(item.kind);
  if (!handler) throw conflict(`Items of kind ${item.kind} cannot be handled here; open the source.`);
  return handler;
}

/**
 * Runs the source's action, then settles the item as the inbox's (the source usually has already;
 * this stamps who acted). A source that says its record is gone (404) or settled (409) had missed
 * telling the inbox: the stale item leaves and the caller gets 409.
 */
async function act(
  ctx: AppContext,
  caller: AuthUser,
  item: InboxItemsTable,
  outcome: InboxOutcome,
  run: () => Promise<void>,
): Promise<TInboxActionResponse> {
  try {
    await run();
  } catch (err) {
    if (err instanceof AppError && (err.statusCode === 404 || err.statusCode === 409)) {
      await resolveInboxItem(ctx, item.kind as TInboxKind, item.source_id, {
        status: 'resolved',
        resolvedBy: null,
      });
      throw conflict(INBOX_ALREADY_SETTLED);
    }
    throw err;
  }
  await resolveInboxItem(ctx, item.kind as TInboxKind, item.source_id, outcome);
  await repo.stampResolution(ctx.db, item.id, { resolved_by: caller.id, reason: outcome.reason ?? null });
  const settled = await repo.findItem(ctx.db, item.id);
  return {
    id: item.id,
    status: (settled?.status ?? outcome.status) as TInboxActionResponse['status'],
    assignee_user_id: item.assignee_user_id,
  };
}

export async function approveInboxItem(
  ctx: AppContext,
  caller: AuthUser,
  id: string,
  edits: Record<string, unknown>,
  sources: InboxSources,
): Promise<TInboxActionResponse> {
  const item = await pendingItem(ctx, caller, id);
  const handler = handlerOf(sources, item);
  return act(ctx, caller, item, { status: 'approved', resolvedBy: caller.id }, () =>
    handler.approve(ctx, caller, item.source_id, edits),
  );
}

export async function rejectInboxItem(
  ctx: AppContext,
  caller: AuthUser,
  id: string,
  reason: string,
  sources: InboxSources,
): Promise<TInboxActionResponse> {
  const item = await pendingItem(ctx, caller, id);
  const handler = handlerOf(sources, item);
  return act(ctx, caller, item, { status: 'rejected', resolvedBy: caller.id, reason }, () =>
    handler.reject(ctx, caller, item.source_id, reason),
  );
}

/** Hands the item to another member of its organization (an approved account): it moves inboxes. */
export async function delegateInboxItem(
  ctx: AppContext,
  caller: AuthUser,
  id: string,
  userId: string,
): Promise<TInboxActionResponse> {
  const item = await pendingItem(ctx, caller, id);
  const [mine, target, theirs] = await Promise.all([
    membershipLevelsOf(ctx, caller.id),
    getUserSummary(ctx, userId),
    membershipLevelsOf(ctx, userId),
  ]);
  // One answer for "no such account" and "not in your organization": nothing leaks about other tenants.
  const eligible =
    target && target.user_level !== 'waitlisted' && mayDelegateTo(item, mine, { id: userId, levels: theirs });
  if (!eligible) {
    throw new AppError(422, [
      { loc: ['body', 'user_id'], msg: INBOX_DELEGATE_SAME_ORG, type: 'value_error' },
    ]);
  }
  if (!(await repo.reassign(ctx.db, item.id, caller.id, userId))) throw conflict(INBOX_ALREADY_SETTLED);
  await changed(ctx, caller.id, userId);
  return { id: item.id, status: 'pending', assignee_user_id: userId };
}

/** GET /api/inbox/events: a note each time the caller's inbox changes (no history to replay). */
export function inboxStreamOptions(caller: AuthUser): SseStreamOptions {
  return {
    channel: inboxChannel(caller.id),
    onEphemeral: () => ({ data: { kind: INBOX_CHANGED_EVENT } }),
  };
}
