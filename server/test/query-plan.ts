import { type Compilable, CompiledQuery } from 'kysely';
import { expect } from 'vitest';
import type { Db } from '../src/db/index.ts';

/** SQLite's EXPLAIN QUERY PLAN lines for a compiled Kysely query. */
export async function sqlitePlan(db: Db, query: Compilable): Promise<string[]> {
  const c = query.compile();
  const res = await db.executeQuery<{ detail: string }>(
    CompiledQuery.raw(`EXPLAIN QUERY PLAN ${c.sql}`, [...c.parameters]),
  );
  return res.rows.map((r) => r.detail);
}

/**
 * The plan reads `table` through an index (SEARCH … USING [COVERING] INDEX / PRIMARY KEY) and never
 * scans it, with or without an index.
 */
export function expectIndexedPlan(plan: string[], table: string): void {
  const text = plan.join('\n');
  const scans = plan.filter((l) => new RegExp(`^SCAN ${table}\\b`).test(l));
  expect(scans, text).toEqual([]);
  const searches = plan.filter((l) =>
    new RegExp(`^SEARCH ${table}\\b.*USING (COVERING INDEX|INDEX|PRIMARY KEY|INTEGER PRIMARY KEY)`).test(l),
  );
  expect(searches.length, text).toBeGreaterThan(0);
}
