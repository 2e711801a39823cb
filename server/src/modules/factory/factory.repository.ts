import type { Insertable, Selectable } from 'kysely';
import { type Db, withTx } from '../../db/index.ts';
import type {
  FactoryAgentsTable,
  FactoryItemColumns,
  FactoryCrewsTable,
  FactoryFlowsTable,
  FactoryToolsTable,
} from '../../db/types.ts';
import type { ViewerScope } from '../../platform/viewer.ts';
import { visibleFactoryItems } from './factory.policy.ts';

export interface FactoryTables {
  factory_agents: FactoryAgentsTable;
  factory_tools: FactoryToolsTable;
  factory_crews: FactoryCrewsTable;
  factory_flows: FactoryFlowsTable;
}
export type FactoryTable = keyof FactoryTables;
/** Every factory row has the shared ownership columns. */
export type FactoryRow<T extends FactoryTable> = Selectable<FactoryTables[T]> &
  Selectable<FactoryItemColumns>;
export type AgentRow = FactoryRow<'factory_agents'>;
export type ToolRow = FactoryRow<'factory_tools'>;
export type CrewRow = FactoryRow<'factory_crews'>;
export type FlowRow = FactoryRow<'factory_flows'>;

// The four tables share their ownership columns; one set of queries serves them (typed per call site).
// Kysely cannot type one query over a union of table names: the builder is untyped here, and every
// exported function is typed per table at its signature.
// biome-ignore lint/suspicious/noExplicitAny: see above.
type Untyped = any;
const q = (db: Db) => db as unknown as Untyped;

/** Items the viewer may see (factory.policy.ts): own, public, built-in, shared with their organizations. */
export async function listVisible<T extends FactoryTable>(
  db: Db,
  table: T,
  viewer: ViewerScope,
  limit = 200,
): Promise<FactoryRow<T>[]> {
  return q(db)
    .selectFrom(table)
    .selectAll()
    .where(visibleFactoryItems(viewer))
    .orderBy('is_auto_gen', 'asc')
    .orderBy('created_at', 'desc')
    .orderBy('id', 'asc')
    .limit(limit)
    .execute();
}

export async function findById<T extends FactoryTable>(
  db: Db,
  table: T,
  id: string,
): Promise<FactoryRow<T> | undefined> {
  return q(db).selectFrom(table).selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findByIds<T extends FactoryTable>(
  db: Db,
  table: T,
  ids: readonly string[],
): Promise<FactoryRow<T>[]> {
  if (!ids.length) return [];
  return q(db)
    .selectFrom(table)
    .selectAll()
    .where('id', 'in', [...ids])
    .execute();
}

export async function findByBuiltinKey<T extends FactoryTable>(
  db: Db,
  table: T,
  key: string,
): Promise<FactoryRow<T> | undefined> {
  return q(db).selectFrom(table).selectAll().where('builtin_key', '=', key).executeTakeFirst();
}

/** The first item with this name the user may see (built-in flows are addressed by name). */
export async function findVisibleByName<T extends FactoryTable>(
  db: Db,
  table: T,
  name: string,
  viewer: ViewerScope,
): Promise<FactoryRow<T> | undefined> {
  return q(db)
    .selectFrom(table)
    .selectAll()
    .where('name', '=', name)
    .where(visibleFactoryItems(viewer))
    .orderBy('is_auto_gen', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** The item with this name the user may see: their own first, then a public one, then the catalogue's. */
export async function findVisibleByNamePreferOwn<T extends FactoryTable>(
  db: Db,
  table: T,
  name: string,
  userId: string,
): Promise<FactoryRow<T> | undefined> {
  const rows: FactoryRow<T>[] = await q(db)
    .selectFrom(table)
    .selectAll()
    .where('name', '=', name)
    .where((eb: Untyped) =>
      eb.or([eb('created_by', '=', userId), eb('is_public', '=', 1), eb('is_auto_gen', '=', 1)]),
    )
    .orderBy('created_at', 'asc')
    .limit(20)
    .execute();
  const rank = (r: FactoryRow<T>) => (r.created_by === userId ? 0 : r.is_public === 1 ? 1 : 2);
  return rows.sort((a, b) => rank(a) - rank(b))[0];
}

export async function insert<T extends FactoryTable>(
  db: Db,
  table: T,
  row: Insertable<FactoryTables[T]>,
): Promise<void> {
  await q(db).insertInto(table).values(row).execute();
}

export async function update<T extends FactoryTable>(
  db: Db,
  table: T,
  id: string,
  patch: Partial<FactoryTables[T]>,
): Promise<void> {
  await q(db).updateTable(table).set(patch).where('id', '=', id).execute();
}

export async function remove(db: Db, table: FactoryTable, id: string): Promise<void> {
  await withTx(db, async (trx) => {
    await trx.deleteFrom('factory_item_shares').where('item_id', '=', id).execute();
    await q(trx).deleteFrom(table).where('id', '=', id).execute();
  });
}

/** The organizations each item is shared with (items without shares are absent). */
export async function sharesOf(db: Db, itemIds: readonly string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  if (!itemIds.length) return out;
  const rows = await db
    .selectFrom('factory_item_shares')
    .select(['item_id', 'organization_id'])
    .where('item_id', 'in', [...new Set(itemIds)])
    .orderBy('organization_id')
    .execute();
  for (const r of rows) out.set(r.item_id, [...(out.get(r.item_id) ?? []), r.organization_id]);
  return out;
}

export async function replaceShares(db: Db, itemId: string, orgIds: readonly string[]): Promise<void> {
  await withTx(db, async (trx) => {
    await trx.deleteFrom('factory_item_shares').where('item_id', '=', itemId).execute();
    if (orgIds.length)
      await trx
        .insertInto('factory_item_shares')
        .values(orgIds.map((organization_id) => ({ item_id: itemId, organization_id })))
        .execute();
  });
}
