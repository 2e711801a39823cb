import { SqliteAdapter } from 'kysely';
import type { Db } from './index.ts';
import { containsPattern } from './search.ts';

/**
 * The parameters every list merged from visibility branches shares (tasks, contacts, goals), in the
 * form a {@link preparedQuery} build takes: the caller, their organizations without repeats, the LIKE
 * pattern of the search (null: none), the page, and whether SQLite merges the branches in order.
 */
export interface BranchPageParams {
  [key: string]: unknown;
  userId: string;
  orgIds: string[];
  /** The LIKE pattern of `search` (null: no search). */
  pattern: string | null;
  skip: number;
  limit: number;
  /** How many rows each branch gives where the branches are not merged (PostgreSQL): skip + limit. */
  n: number;
  /** SQLite merges a compound SELECT in index order; PostgreSQL does not. */
  sqlite: boolean;
}

export function branchPageParams(
  db: Db,
  o: { userId: string; orgIds: readonly string[]; search?: string; skip: number; limit: number },
): BranchPageParams {
  return {
    userId: o.userId,
    orgIds: [...new Set(o.orgIds)],
    pattern: containsPattern(o.search),
    skip: o.skip,
    limit: o.limit,
    n: o.skip + o.limit,
    sqlite: db.getExecutor().adapter instanceof SqliteAdapter,
  };
}
