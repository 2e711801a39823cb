import { type Expression, type SqlBool, sql } from 'kysely';
import { adviceSearchVisibility } from '../../modules/advice/advice.policy.ts';
import { contactSearchVisibility } from '../../modules/contacts/contacts.policy.ts';
import { fileSearchVisibility } from '../../modules/files/files.policy.ts';
import { goalSearchVisibility } from '../../modules/goals/goals.policy.ts';
import { noteSearchVisibility } from '../../modules/journals/journals.policy.ts';
import { taskSearchVisibility } from '../../modules/tasks/tasks.policy.ts';
import type { AppContext } from '../../platform/context.ts';
import { loadViewer, type ViewerScope } from '../../platform/viewer.ts';
import type { SearchHit } from '../tools/types.ts';

export const MAX_SEARCH_HITS = 20;

type SearchVisibility = (viewer: ViewerScope, entityId: Expression<string>) => Expression<SqlBool>;

/**
 * Who may see a hit, per entity type of `search_documents`: each domain's policy gives the rule (the
 * same one its REST list uses). A type not listed here is never returned. The index rows themselves
 * are written by triggers (migrations 0004 and 0008).
 */
const VISIBILITY: ReadonlyArray<readonly [string, SearchVisibility]> = [
  ['goal', goalSearchVisibility],
  ['advice', adviceSearchVisibility],
  ['task', taskSearchVisibility],
  ['note', noteSearchVisibility],
  ['contact', contactSearchVisibility],
  ['file', fileSearchVisibility],
];
const MAX_TERMS = 10;
const SNIPPET_CHARS = 160;

/** Search words: letters and digits only, lower-cased, unique (the rest is never passed to the engine). */
export function searchTerms(query: string): string[] {
  const words = query
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0);
  return [...new Set(words)].slice(0, MAX_TERMS);
}

/** About SNIPPET_CHARS of the body around the first matching word. */
export function snippetOf(body: string, terms: readonly string[]): string {
  const text = body.replace(/\s+/g, ' ').trim();
  if (text.length <= SNIPPET_CHARS) return text;
  const lower = text.toLowerCase();
  const at = terms.map((t) => lower.indexOf(t)).filter((i) => i >= 0);
  const first = at.length > 0 ? Math.min(...at) : 0;
  const start = Math.max(0, first - 40);
  const end = Math.min(text.length, start + SNIPPET_CHARS);
  return `${start > 0 ? '…' : ''}${text.slice(start, end).trim()}${end < text.length ? '…' : ''}`;
}

/**
 * Full-text search over what `user` may see (goals, advice, tasks, notes, contacts, files),
 * best match first: FTS5 bm25 on SQLite (title weighted above body), ts_rank on PostgreSQL. Any word
 * may match, prefixes included. Visibility is applied in the same query, so another user's records
 * never appear.
 */
export async function searchWorkspace(
  ctx: AppContext,
  user: { id: string },
  query: string,
  limit = 8,
): Promise<SearchHit[]> {
  const terms = searchTerms(query);
  if (terms.length === 0) return [];
  const n = Math.max(1, Math.min(MAX_SEARCH_HITS, Math.floor(limit)));
  const viewer = await loadViewer(ctx, user);
  const entityId = sql.ref<string>('d.entity_id');
  const visible = sql.join(
    VISIBILITY.map(([type, rule]) => sql<SqlBool>`(d.entity_type = ${type} and ${rule(viewer, entityId)})`),
    sql` or `,
  );
  type Row = { entity_type: string; entity_id: string; title: string; body: string };
  let rows: Row[];
  if (ctx.dialect === 'postgres') {
    const tsq = terms.map((t) => `${t}:*`).join(' | ');
    const res = await sql<Row>`select d.entity_type, d.entity_id, d.title, d.body from search_documents d
      where d.tsv @@ to_tsquery('english', ${tsq}) and (${visible})
      order by ts_rank(d.tsv, to_tsquery('english', ${tsq})) desc, d.entity_id
      limit ${n}`.execute(ctx.db);
    rows = res.rows;
  } else {
    const match = terms.map((t) => `"${t}"*`).join(' OR ');
    const res = await sql<Row>`select d.entity_type, d.entity_id, d.title, d.body
      from search_fts join search_documents d on d.id = search_fts.rowid
      where search_fts match ${match} and (${visible})
      order by bm25(search_fts, 5.0, 1.0), d.entity_id
      limit ${n}`.execute(ctx.db);
    rows = res.rows;
  }
  return rows.map((r) => ({
    type: r.entity_type,
    id: r.entity_id,
    title: r.title,
    snippet: snippetOf(r.body, terms),
  }));
}
