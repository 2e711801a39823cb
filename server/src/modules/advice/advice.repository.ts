import type { Db } from '../../db/index.ts';
import type { StrategicAdviceTable } from '../../db/types.ts';
import { visibleAdvice } from './advice.policy.ts';

export interface AdviceListOptions {
  userId: string;
  orgIds: readonly string[];
  organizationId?: string;
  skip: number;
  limit: number;
}

/** Newest first; what the advice policy lets the caller see (strategic_advice_user_idx / _org_idx). */
export function listAdviceQuery(db: Db, o: AdviceListOptions) {
  let q = db
    .selectFrom('strategic_advice')
    .selectAll()
    .where(visibleAdvice({ id: o.userId, orgIds: o.orgIds }));
  if (o.organizationId) q = q.where('organization_id', '=', o.organizationId);
  return q.orderBy('created_at', 'desc').orderBy('id', 'desc').offset(o.skip).limit(o.limit);
}

export function listAdvice(db: Db, o: AdviceListOptions) {
  return listAdviceQuery(db, o).execute();
}

export function findAdvice(db: Db, id: string) {
  return db.selectFrom('strategic_advice').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function insertAdvice(db: Db, row: StrategicAdviceTable): Promise<void> {
  await db.insertInto('strategic_advice').values(row).execute();
}

export async function updateAdvice(db: Db, id: string, set: Partial<StrategicAdviceTable>): Promise<void> {
  await db.updateTable('strategic_advice').set(set).where('id', '=', id).execute();
}

export async function deleteAdvice(db: Db, id: string): Promise<void> {
  await db.deleteFrom('strategic_advice').where('id', '=', id).execute();
}
