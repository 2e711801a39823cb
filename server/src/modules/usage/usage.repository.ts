import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { Db } from '../../db/index.ts';
import { preparedQuery } from '../../db/prepared-query.ts';
import type { Database } from '../../db/types.ts';
import { VOLATILE_WRITE } from '../../db/tracking-dialect.ts';
import type { UsageEventsTable } from '../../db/usage-types.ts';

type Q = Kysely<Database>;

export const orgKey = (orgId: string) => `org:${orgId}`;
export const memberKey = (orgId: string, userId: string) => `member:${orgId}:${userId}`;

// ---- prices ----

export function listPrices(db: Db) {
  return db.selectFrom('model_prices').selectAll().orderBy('model').limit(500).execute();
}

export async function upsertPrices(
  db: Db,
  rows: {
    model: string;
    input_micros_per_million: number;
    output_micros_per_million: number;
    updated_at: string;
  }[],
): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insertInto('model_prices')
    .values(rows)
    .onConflict((oc) =>
      oc.column('model').doUpdateSet((eb) => ({
        input_micros_per_million: eb.ref('excluded.input_micros_per_million'),
        output_micros_per_million: eb.ref('excluded.output_micros_per_million'),
        updated_at: eb.ref('excluded.updated_at'),
      })),
    )
    .execute();
}

// ---- the endpoint models offered, and spend settings ----

export async function listOffers(db: Db): Promise<string[]> {
  const rows = await db.selectFrom('model_offers').select('model').orderBy('model').limit(1000).execute();
  return rows.map((r) => r.model);
}

/** Replaces the offered endpoint models with `models`. */
export async function replaceOffers(q: Q, models: readonly string[], now: string): Promise<void> {
  await q.deleteFrom('model_offers').execute();
  if (models.length > 0)
    await q
      .insertInto('model_offers')
      .values(models.map((model) => ({ model, updated_at: now })))
      .execute();
}

export async function findSetting(db: Db, key: string): Promise<string | undefined> {
  const row = await db.selectFrom('usage_settings').select('value').where('key', '=', key).executeTakeFirst();
  return row?.value;
}

/** Stores a setting (null removes it). */
export async function putSetting(q: Q, key: string, value: string | null, now: string): Promise<void> {
  if (value === null) {
    await q.deleteFrom('usage_settings').where('key', '=', key).execute();
    return;
  }
  await q
    .insertInto('usage_settings')
    .values({ key, value, updated_at: now })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value, updated_at: now }))
    .execute();
}

// ---- budgets and counters ----

/** True when any of these scopes has a budget. */
export async function anyBudget(db: Db, keys: readonly string[]): Promise<boolean> {
  if (keys.length === 0) return false;
  const row = await db
    .selectFrom('usage_budgets')
    .select('scope_key')
    .where('scope_key', 'in', [...keys])
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

export function findBudget(db: Db, scopeKey: string) {
  return db.selectFrom('usage_budgets').selectAll().where('scope_key', '=', scopeKey).executeTakeFirst();
}

export async function setBudget(
  db: Db,
  row: {
    scope_key: string;
    organization_id: string;
    user_id: string | null;
    monthly_micros: number | null;
    updated_at: string;
  },
): Promise<void> {
  if (row.monthly_micros === null) {
    await db.deleteFrom('usage_budgets').where('scope_key', '=', row.scope_key).execute();
    return;
  }
  await db
    .insertInto('usage_budgets')
    .values({ ...row, monthly_micros: row.monthly_micros })
    .onConflict((oc) =>
      oc.column('scope_key').doUpdateSet((eb) => ({
        monthly_micros: eb.ref('excluded.monthly_micros'),
        updated_at: eb.ref('excluded.updated_at'),
      })),
    )
    .execute();
}

export function findCounter(db: Db, scopeKey: string, month: string) {
  return db
    .selectFrom('usage_counters')
    .selectAll()
    .where('scope_key', '=', scopeKey)
    .where('month', '=', month)
    .executeTakeFirst();
}

/**
 * Reserves `micros` on each scope's counter for `month` when every scope's budget allows it; returns
 * the first scope (in `keys` order) whose budget refuses, or null when all are reserved.
 *
 * One conditional UPDATE over all the scopes: a statement locks its rows only until it ends, whereas
 * a transaction of one update per scope held the organization's row across several round trips, and
 * on PostgreSQL fifty turns at once queued behind each other's transactions. PostgreSQL re-checks each
 * row's condition on the locked row, so concurrent reservations never together pass a budget. When a
 * scope refuses, what the statement reserved on the others is given back at once; until then, another
 * call near the same budget may be refused (never let through).
 */
export async function reserveAll(
  q: Q,
  keys: readonly string[],
  month: string,
  micros: number,
): Promise<string | null> {
  // The month's counters exist after a scope's first call: the update alone decides. Only when it
  // misses a scope (no counter yet, or the budget refuses) are the counters made and the update retried.
  let reserved = await reserveUpdate(q, { keys: [...keys], month, micros });
  if (reserved.length === keys.length) return null;
  await giveBack(q, reserved, month, micros);
  for (const scopeKey of keys) await counterInsert(q, { scopeKey, month });
  reserved = await reserveUpdate(q, { keys: [...keys], month, micros });
  if (reserved.length === keys.length) return null;
  await giveBack(q, reserved, month, micros);
  const got = new Set(reserved.map((r) => r.scope_key));
  return keys.find((k) => !got.has(k)) ?? null;
}

async function giveBack(q: Q, rows: { scope_key: string }[], month: string, micros: number) {
  if (rows.length === 0) return;
  await counterSettle(q, {
    keys: rows.map((r) => r.scope_key),
    month,
    reservedMicros: micros,
    costMicros: 0,
  });
}

// Every model call reserves and settles: these statements are prepared (built and compiled once, see
// preparedQuery), as building them with Kysely on each call was a visible share of a chat turn's CPU.
// Volatile writes: the call's first token does not wait for a disk flush. A hold whose call's instance
// died is settled by the sweep of usage-leases.service.ts from the call's usage_reservations row.
const counterInsert = preparedQuery((db, p: { scopeKey: string; month: string }) =>
  compilable(
    db,
    sql`insert into usage_counters (scope_key, month, used_micros, reserved_micros, warned)
    values (${p.scopeKey}, ${p.month}, 0, 0, 0) on conflict (scope_key, month) do nothing ${sql.raw(VOLATILE_WRITE)}`,
  ),
);

const reserveUpdate = preparedQuery((db, p: { keys: string[]; month: string; micros: number }) => {
  const limit = sql`(select b.monthly_micros from usage_budgets b where b.scope_key = usage_counters.scope_key)`;
  return compilable(
    db,
    sql<{ scope_key: string }>`update usage_counters set reserved_micros = reserved_micros + ${p.micros}
    where scope_key in (${sql.join(p.keys)}) and month = ${p.month}
      and (${limit} is null or (used_micros + reserved_micros + ${p.micros} <= ${limit} and used_micros + reserved_micros < ${limit}))
    returning scope_key ${sql.raw(VOLATILE_WRITE)}`,
  );
});

/** A raw statement as preparedQuery takes it (a RawBuilder compiles against an executor). */
const compilable = <R>(db: Q, raw: RawBuilder<R>) => ({ compile: () => raw.compile(db) });

/**
 * Turns a reservation into spend on each scope: the estimate leaves `reserved`, the real cost joins
 * `used`. One statement for all the scopes (see reserveAll); returns each scope's new `used`.
 */
export async function settleCounters(
  q: Q,
  keys: readonly string[],
  month: string,
  reservedMicros: number,
  costMicros: number,
): Promise<{ key: string; used: number }[]> {
  if (keys.length === 0) return [];
  const rows = await counterSettle(q, { keys: [...keys], month, reservedMicros, costMicros });
  return rows.map((r) => ({ key: r.scope_key, used: Number(r.used_micros) }));
}

const counterSettle = preparedQuery(
  (db, p: { keys: string[]; month: string; reservedMicros: number; costMicros: number }) =>
    db
      .updateTable('usage_counters')
      .set({
        reserved_micros: sql`case when reserved_micros > ${p.reservedMicros} then reserved_micros - ${p.reservedMicros} else 0 end`,
        used_micros: sql`used_micros + ${p.costMicros}`,
      })
      .where('scope_key', 'in', p.keys)
      .where('month', '=', p.month)
      .returning(['scope_key', 'used_micros']),
);

/** Marks the 80 % warning of a scope's month as given; true only for the call that marked it. */
export async function markWarned(q: Q, scopeKey: string, month: string): Promise<boolean> {
  const r = await q
    .updateTable('usage_counters')
    .set({ warned: 1 })
    .where('scope_key', '=', scopeKey)
    .where('month', '=', month)
    .where('warned', '=', 0)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

// ---- events and the daily roll-up ----

export async function insertEvent(q: Q, row: UsageEventsTable): Promise<void> {
  // A bigint (the column type allows one) goes as its decimal text: prepared values are strings or numbers.
  const cost = typeof row.cost_micros === 'bigint' ? row.cost_micros.toString() : row.cost_micros;
  await eventInsert(q, { ...row, cost_micros: cost });
  await dailyUpsert(q, {
    day: row.day,
    user_id: row.user_id ?? '',
    organization_id: row.organization_id ?? '',
    model: row.model,
    feature: row.feature,
    input_tokens: row.input_tokens,
    output_tokens: row.output_tokens,
    cost_micros: cost,
  });
}

const eventInsert = preparedQuery(
  (db, p: Omit<UsageEventsTable, 'cost_micros'> & { cost_micros: number | string }) =>
    db.insertInto('usage_events').values(p),
);

const dailyUpsert = preparedQuery(
  (
    db,
    p: {
      day: string;
      user_id: string;
      organization_id: string;
      model: string;
      feature: string;
      input_tokens: number;
      output_tokens: number;
      cost_micros: number | string;
    },
  ) =>
    db
      .insertInto('usage_daily')
      .values({ ...p, calls: 1 })
      .onConflict((oc) =>
        oc.columns(['day', 'user_id', 'organization_id', 'model', 'feature']).doUpdateSet({
          calls: sql`usage_daily.calls + 1`,
          input_tokens: sql`usage_daily.input_tokens + ${p.input_tokens}`,
          output_tokens: sql`usage_daily.output_tokens + ${p.output_tokens}`,
          cost_micros: sql`usage_daily.cost_micros + ${p.cost_micros}`,
        }),
      ),
);

export type GroupColumn = 'day' | 'user_id' | 'organization_id' | 'model' | 'feature';

/** Sums of the roll-up grouped by one column, for days in [since, until], optionally one org or user. */
export function summarize(
  db: Db,
  o: { group: GroupColumn; since: string; until: string; organizationId?: string; userId?: string },
) {
  let q = db
    .selectFrom('usage_daily')
    .select((eb) => [
      sql<string>`${sql.ref(o.group)}`.as('key'),
      eb.fn.sum<number>('calls').as('calls'),
      eb.fn.sum<number>('input_tokens').as('input_tokens'),
      eb.fn.sum<number>('output_tokens').as('output_tokens'),
      eb.fn.sum<number>('cost_micros').as('cost_micros'),
    ])
    .where('day', '>=', o.since)
    .where('day', '<=', o.until);
  if (o.organizationId !== undefined) q = q.where('organization_id', '=', o.organizationId);
  if (o.userId !== undefined) q = q.where('user_id', '=', o.userId);
  // Bounded: at most one row per day of a range, or per person, organization, model or feature.
  return q.groupBy(sql.ref(o.group)).orderBy(sql.ref(o.group)).limit(5000).execute();
}

/** The call rows of a range (the CSV export), oldest first, at most `limit`. */
export function listEvents(
  db: Db,
  o: { since: string; until: string; organizationId?: string; limit: number },
) {
  let q = db.selectFrom('usage_events').selectAll().where('day', '>=', o.since).where('day', '<=', o.until);
  if (o.organizationId !== undefined) q = q.where('organization_id', '=', o.organizationId);
  return q.orderBy('day').orderBy('id').limit(o.limit).execute();
}

/** Mean input and output tokens and calls per run of the runs that used these agents' steps. */
export async function runHistory(db: Db, runIds: readonly string[]) {
  if (runIds.length === 0) return { calls: 0, input: 0, output: 0 };
  const r = await db
    .selectFrom('usage_events')
    .select((eb) => [
      eb.fn.countAll<number>().as('calls'),
      eb.fn.sum<number>('input_tokens').as('input'),
      eb.fn.sum<number>('output_tokens').as('output'),
    ])
    .where('run_id', 'in', runIds)
    .executeTakeFirst();
  return { calls: Number(r?.calls ?? 0), input: Number(r?.input ?? 0), output: Number(r?.output ?? 0) };
}

/** Per agent: tokens per run it took part in, over its calls since `sinceDay` in this workspace. */
export async function agentHistory(
  db: Db,
  agentIds: readonly string[],
  sinceDay: string,
  workspace: { organizationId: string | null; userId: string },
) {
  if (agentIds.length === 0) return [];
  let q = db
    .selectFrom('usage_events')
    .select((eb) => [
      'agent_id',
      eb.fn.sum<number>('input_tokens').as('input'),
      eb.fn.sum<number>('output_tokens').as('output'),
      sql<number>`count(distinct run_id)`.as('runs'),
    ])
    .where('agent_id', 'in', [...agentIds])
    .where('day', '>=', sinceDay);
  q = workspace.organizationId
    ? q.where('organization_id', '=', workspace.organizationId)
    : q.where('user_id', '=', workspace.userId);
  return q.groupBy('agent_id').limit(agentIds.length).execute();
}
