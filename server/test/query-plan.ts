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

export interface PlanNode {
  id: number;
  parent: number;
  detail: string;
}

/** SQLite's EXPLAIN QUERY PLAN as a tree (id, parent, detail). */
export async function sqlitePlanTree(db: Db, query: Compilable): Promise<PlanNode[]> {
  const c = query.compile();
  const res = await db.executeQuery<PlanNode>(
    CompiledQuery.raw(`EXPLAIN QUERY PLAN ${c.sql}`, [...c.parameters]),
  );
  return res.rows;
}

/** The plan as text, after checking that it scans none of `tables` (with or without an index). */
function expectNoScan(plan: PlanNode[], tables: readonly string[]): { text: string; tableRe: string } {
  const text = plan.map((n) => `${n.id} ${n.parent} ${n.detail}`).join('\n');
  const tableRe = tables.join('|');
  expect(
    plan.filter((n) => new RegExp(`^SCAN (${tableRe})\\b`).test(n.detail)),
    text,
  ).toEqual([]);
  return { text, tableRe };
}

/**
 * A list page merged in order from visibility branches (see the tasks repository on SQLite): SQLite
 * runs a MERGE of the compound SELECT, each of the `branches` reads its list index (`*_list_idx`) in
 * the page's order, and nothing is sorted (no temporary B-tree) or scanned.
 */
export function expectMergedIndexBranches(
  plan: PlanNode[],
  branches: number,
  tables: readonly string[],
): void {
  const { text, tableRe } = expectNoScan(plan, tables);
  expect(
    plan.filter((n) => /TEMP B-TREE/.test(n.detail)),
    text,
  ).toEqual([]);
  const reads = plan.filter((n) =>
    new RegExp(`^SEARCH (${tableRe})\\b.*USING (COVERING )?INDEX \\w+_list_idx`).test(n.detail),
  );
  expect(reads.length, text).toBe(branches);
  if (branches > 1)
    expect(
      plan.some((n) => /^MERGE \(UNION\)/.test(n.detail)),
      text,
    ).toBe(true);
}
