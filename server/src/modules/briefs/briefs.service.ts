import { randomUUID } from 'node:crypto';
import type { TBrief, ZBriefListQuery } from '@cc/contract';
import type { z } from 'zod';
import type { AuthUser } from '../../platform/auth/authenticate.ts';
import type { AppContext } from '../../platform/context.ts';
import { ownedBy } from '../../platform/access.ts';
import { getUserSummary } from '../users/users.service.ts';
import { buildSections } from './briefs.facts.ts';
import { sendBriefEmail } from './briefs.mailer.ts';
import { presentBrief } from './briefs.presenter.ts';
import * as repo from './briefs.repository.ts';
import { loadFactInput } from './briefs.sources.ts';
import { writeWords } from './briefs.words.ts';

/** A first brief covers the week before it. */
export const FIRST_BRIEF_PERIOD_DAYS = 7;

/**
 * Builds one brief for the person: facts first (from what they may see), then the checked words; the
 * brief is stored before it is e-mailed, so a brief that cannot be sent is kept and says why.
 */
export async function generateBrief(
  ctx: AppContext,
  /** The brief's person (its model call is metered to them and their organization). */
  owner: { id: string; organization_id: string | null },
  o: { trigger: 'manual' | 'scheduled'; now?: Date },
): Promise<TBrief> {
  const userId = owner.id;
  const now = o.now ?? new Date();
  const end = now.toISOString();
  const previous = await repo.latestPeriodEnd(ctx.db, userId);
  // A previous brief stamped after `now` (an injected clock) never gives a period that ends first.
  const start = [
    previous ?? new Date(now.getTime() - FIRST_BRIEF_PERIOD_DAYS * 86_400_000).toISOString(),
    end,
  ].sort()[0];
  const input = await loadFactInput(ctx, userId, { start, end }, now);
  const sections = buildSections(input);
  const words = await writeWords(ctx, { userId, organizationId: owner.organization_id }, sections);
  const smtp = ctx.config.briefs.smtpUrl;
  const row: repo.BriefRow = {
    id: randomUUID(),
    user_id: userId,
    period_start: input.period_start,
    period_end: end,
    created_at: end,
    trigger: o.trigger,
    summary: words.summary,
    summary_status: words.summary_status,
    actions: JSON.stringify(words.actions),
    sections: JSON.stringify(sections),
    delivery_status: 'not_configured',
    delivery_error: null,
    delivered_at: null,
  };
  await repo.insertBrief(ctx.db, row);
  if (!smtp) return presentBrief(row);
  return presentBrief(await deliver(ctx, row, smtp));
}

/** Brief e-mails one person gets at most in any 24 hours (manual and scheduled briefs together). */
export const MAX_BRIEF_EMAILS_PER_DAY = 3;
/** Why a brief past the day's e-mails was not sent (its `delivery.reason`). */
export const DAILY_EMAILS_REACHED = `At most ${MAX_BRIEF_EMAILS_PER_DAY} briefs are e-mailed a day; this one is on this page only.`;
const DAY_MS = 86_400_000;

async function deliver(ctx: AppContext, row: repo.BriefRow, smtpUrl: string): Promise<repo.BriefRow> {
  const user = await getUserSummary(ctx, row.user_id);
  const claimed =
    user !== undefined &&
    (await repo.claimDailyEmail(ctx.db, {
      briefId: row.id,
      userId: row.user_id,
      since: new Date(Date.now() - DAY_MS).toISOString(),
      now: new Date().toISOString(),
      max: MAX_BRIEF_EMAILS_PER_DAY,
      postgres: ctx.dialect === 'postgres',
    }));
  const reason = !user
    ? 'The account has no e-mail address.'
    : !claimed
      ? DAILY_EMAILS_REACHED
      : await sendBriefEmail(
          { smtpUrl, from: ctx.config.briefs.smtpFrom, to: user.email, base: ctx.config.briefs.publicUrl },
          presentBrief(row),
        );
  // A send that failed gives its daily e-mail back (delivered_at null): only sent e-mails count.
  const delivery = reason
    ? { status: 'not_delivered', error: reason.slice(0, 500), at: null }
    : { status: 'sent', error: null, at: new Date().toISOString() };
  await repo.setDelivery(ctx.db, row.id, delivery);
  return {
    ...row,
    delivery_status: delivery.status,
    delivery_error: delivery.error,
    delivered_at: delivery.at,
  };
}

export async function listBriefs(
  ctx: AppContext,
  caller: AuthUser,
  q: z.output<typeof ZBriefListQuery>,
): Promise<TBrief[]> {
  const rows = await repo.listBriefs(ctx.db, { userId: caller.id, skip: q.skip, limit: q.limit });
  return rows.map(presentBrief);
}

/** A brief is its owner's alone: anyone else's is a 404, like one that does not exist. */
export async function getBrief(ctx: AppContext, caller: AuthUser, id: string): Promise<TBrief> {
  return presentBrief(ownedBy(await repo.findBrief(ctx.db, id), caller.id, 'Brief not found'));
}
