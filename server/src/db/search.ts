import { type RawBuilder, type SqlBool, sql } from 'kysely';

/**
 * The LIKE pattern for "contains this text, case-insensitively" (the search is lower-cased and its
 * `\`, `%` and `_` escaped), or null for a blank search. Pair it with {@link lowerLike}.
 */
export function containsPattern(search: string | undefined): string | null {
  const s = search?.trim().toLowerCase();
  if (!s) return null;
  return `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** `lower(column) like pattern escape '\'`: the same text in SQLite and PostgreSQL. */
export function lowerLike(column: string, pattern: string): RawBuilder<SqlBool> {
  return sql<SqlBool>`lower(${sql.ref(column)}) like ${pattern} escape '\\'`;
}
