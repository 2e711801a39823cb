import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/types.ts';
import { preparedQuery } from '../../db/prepared-query.ts';
import { VOLATILE_WRITE } from '../../db/tracking-dialect.ts';
import type { UsageReservationsTable } from '../../db/usage-types.ts';

type Q = Kysely<Database>;
type Big = number | string;

// A row per model call in flight (migration 0034). Volatile writes like the counters' (see
// usage.repository.ts): the call's first token waits for no disk flush.

export type ReservationRow = Omit<
  UsageReservationsTable,
  'reserved_micros' | 'input_micros_per_million' | 'output_micros_per_million'
> & {
  reserved_micros: Big;
  input_micros_per_million: Big;
  output_micros_per_million: Big;
};

const insertRow = preparedQuery((db, p: ReservationRow) =>
  db.insertInto('usage_reservations').values(p).modifyEnd(sql.raw(VOLATILE_WRITE)),
);

export async function insertReservation(q: Q, row: ReservationRow): Promise<void> {
  await insertRow(q, row);
}

const renewRow = preparedQuery(
  (db, p: { id: string; owner: string; leaseUntil: string; inputTokens: number; outputTokens: number }) =>
    db
      .updateTable('usage_reservations')
      .set({ lease_until: p.leaseUntil, input_tokens: p.inputTokens, output_tokens: p.outputTokens })
      .where('id', '=', p.id)
      .where('owner', '=', p.owner)
      .returning('id')
      .modifyEnd(sql.raw(VOLATILE_WRITE)),
);

/** Extends the lease and records what the call has used so far; false when the row is gone (swept). */
export async function renewReservation(
  q: Q,
  p: { id: string; owner: string; leaseUntil: string; inputTokens: number; outputTokens: number },
): Promise<boolean> {
  return (await renewRow(q, p)).length > 0;
}

const deleteRow = preparedQuery((db, p: { id: string }) =>
  db.deleteFrom('usage_reservations').where('id', '=', p.id).returning('id'),
);

/** Removes a call's row; true only for the one caller that removed it (the call, or a sweep). */
export async function takeReservation(q: Q, id: string): Promise<boolean> {
  return (await deleteRow(q, { id })).length > 0;
}

/** Ids of rows whose lease ran out before `now` (or any other owner's, at a single-process start). */
export async function staleReservationIds(
  q: Q,
  o: { now: string; otherThan?: string; limit: number },
): Promise<string[]> {
  let query = q.selectFrom('usage_reservations').select('id');
  query = o.otherThan
    ? query.where((eb) => eb.or([eb('lease_until', '<', o.now), eb('owner', '<>', o.otherThan as string)]))
    : query.where('lease_until', '<', o.now);
  const rows = await query.orderBy('lease_until').limit(o.limit).execute();
  return rows.map((r) => r.id);
}

/** Takes a stale row (deletes it, returning it) only while it is still stale: one taker wins. */
export function takeStaleReservation(q: Q, o: { id: string; now: string; otherThan?: string }) {
  return q
    .deleteFrom('usage_reservations')
    .where('id', '=', o.id)
    .where((eb) =>
      o.otherThan
        ? eb.or([eb('lease_until', '<', o.now), eb('owner', '<>', o.otherThan)])
        : eb('lease_until', '<', o.now),
    )
    .returningAll()
    .executeTakeFirst();
}
