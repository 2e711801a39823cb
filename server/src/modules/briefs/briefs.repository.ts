import type { Selectable } from 'kysely';
import { type Db, withTx } from '../../db/index.ts';
import type { BriefsTable } from '../../db/types.ts';

export type BriefRow = Selectable<BriefsTable>;

export async function insertBrief(db: Db, row: BriefsTable): Promise<void> {
  await db.insertInto('briefs').values(row).execute();
}

export function findBrief(db: Db, id: string): Promise<BriefRow | undefined> {
  return db.selectFrom('briefs').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The user's briefs, newest first (briefs_user_created_idx). */
export function listBriefs(db: Db, o: { userId: string; skip: number; limit: number }): Promise<BriefRow[]> {
  return db
    .selectFrom('briefs')
    .selectAll()
    .where('user_id', '=', o.userId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(o.limit)
    .offset(o.skip)
    .execute();
}

/** The end of the user's latest brief: where the next one's period starts. */
export async function latestPeriodEnd(db: Db, userId: string): Promise<string | null> {
  const row = await db
    .selectFrom('briefs')
    .select('period_end')
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.period_end ?? null;
}

export async function setDelivery(
  db: Db,
  id: string,
  d: { status: string; error: string | null; at: string | null },
): Promise<void> {
  await db
    .updateTable('briefs')
    .set({ delivery_status: d.status, delivery_error: d.error, delivered_at: d.at })
    .where('id', '=', id)
    .execute();
}

/** A brief whose e-mail is on its way: it holds one of the person's daily e-mails until it ends. */
export const SENDING = 'sending';

/**
 * Claims one of the person's daily brief e-mails for the brief: true, and the brief marked `sending`
 * at `now`, when fewer than `max` e-mails were sent or are being sent since `since`. The user's row is
 * locked first on PostgreSQL, so two briefs of one person claim one after the other (SQLite runs one
 * write transaction at a time already).
 */
export function claimDailyEmail(
  db: Db,
  o: { briefId: string; userId: string; since: string; now: string; max: number; postgres: boolean },
): Promise<boolean> {
  return withTx(db, async (trx) => {
    let lock = trx.selectFrom('users').select('id').where('id', '=', o.userId);
    if (o.postgres) lock = lock.forUpdate();
    await lock.execute();
    const { n } = await trx
      .selectFrom('briefs')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('user_id', '=', o.userId)
      .where('delivery_status', 'in', ['sent', SENDING])
      .where('delivered_at', '>=', o.since)
      .executeTakeFirstOrThrow();
    if (Number(n) >= o.max) return false;
    await trx
      .updateTable('briefs')
      .set({ delivery_status: SENDING, delivered_at: o.now })
      .where('id', '=', o.briefId)
      .execute();
    return true;
  });
}

/**
 * Claims the (user, slot) for this instance: one insert that only the first instance wins (the primary
 * key), or, for a slot claimed by an instance that died before finishing (no brief, claimed before
 * `staleBefore`), one conditional update that only one instance wins.
 */
export async function claimSlot(
  db: Db,
  o: { userId: string; slotAt: string; now: string; staleBefore: string },
): Promise<boolean> {
  const inserted = await db
    .insertInto('brief_slots')
    .values({ user_id: o.userId, slot_at: o.slotAt, claimed_at: o.now, brief_id: null })
    .onConflict((oc) => oc.columns(['user_id', 'slot_at']).doNothing())
    .returning('user_id')
    .executeTakeFirst();
  if (inserted) return true;
  const retaken = await db
    .updateTable('brief_slots')
    .set({ claimed_at: o.now })
    .where('user_id', '=', o.userId)
    .where('slot_at', '=', o.slotAt)
    .where('brief_id', 'is', null)
    .where('claimed_at', '<', o.staleBefore)
    .returning('user_id')
    .executeTakeFirst();
  return retaken !== undefined;
}

export async function completeSlot(db: Db, userId: string, slotAt: string, briefId: string): Promise<void> {
  await db
    .updateTable('brief_slots')
    .set({ brief_id: briefId })
    .where('user_id', '=', userId)
    .where('slot_at', '=', slotAt)
    .execute();
}

/** Gives a slot up (its brief failed), so a later tick may try it again. */
export async function releaseSlot(db: Db, userId: string, slotAt: string): Promise<void> {
  await db
    .deleteFrom('brief_slots')
    .where('user_id', '=', userId)
    .where('slot_at', '=', slotAt)
    .where('brief_id', 'is', null)
    .execute();
}
