import { createHash } from 'node:crypto';
import pg from 'pg';

/**
 * PostgreSQL plans a statement sent without a name again on every execution. For the hot statements
 * of this app (a session's user, its memberships, a list page's union of visibility branches) the
 * planning took as long as the execution or longer (EXPLAIN ANALYZE on the bench data set: a tasks
 * page 0.5 ms planning for 0.6 ms execution; the session's user 0.19 ms for 0.03 ms). A named
 * statement is parsed once per connection, and PostgreSQL keeps its plan (after five executions it
 * uses a generic plan when that is not costlier than planning anew, `plan_cache_mode` auto).
 *
 * Only parameterised reads and writes that have run before get a name (the SQL of a given shape never
 * changes, see preparedQuery), searches excepted (below), and at most {@link MAX_NAMED} texts per
 * process, so a connection holds a bounded number of statements however many one-off texts the app
 * sends (an `in (…)` list of each length is a text of its own). `PG_NAMED_STATEMENTS=0` turns it off
 * (a pooler in transaction mode, such as PgBouncer before 1.21, cannot keep a connection's statements).
 */
export const MAX_NAMED = 500;

/** Runs a text must have had before it gets a name: one-off texts stay unnamed. */
const HOT_AFTER = 2;

const DML = /^\s*(select|insert|update|delete|with)\b/i;

/**
 * Statements whose best plan depends on a pattern's value stay unnamed: a generic plan of a search
 * (`like`, full text) cannot see the pattern, and measured twice as slow as planning each search.
 */
const VALUE_DEPENDENT = /\b(i?like)\b|@@/i;

/** PostgreSQL's answer when a statement's result columns changed under it (a migration added one). */
const CACHED_PLAN_CHANGED = '0A000';

export class StatementNames {
  private readonly names = new Map<string, string>();
  private readonly seen = new Map<string, number>();

  /** The name for this text, or null while it is not (or cannot be) named. */
  nameOf(text: string): string | null {
    const name = this.names.get(text);
    if (name !== undefined) return name;
    if (this.names.size >= MAX_NAMED || !DML.test(text) || VALUE_DEPENDENT.test(text)) return null;
    const runs = (this.seen.get(text) ?? 0) + 1;
    if (runs < HOT_AFTER) {
      // The counts of texts never named are kept within the same bound.
      if (this.seen.size >= MAX_NAMED * 4) this.seen.clear();
      this.seen.set(text, runs);
      return null;
    }
    this.seen.delete(text);
    const named = `cc_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
    this.names.set(text, named);
    return named;
  }

  get size(): number {
    return this.names.size;
  }
}

type QueryResult = pg.QueryResult<Record<string, unknown>>;

/**
 * A pg client that sends the hot statements named (see above). Only the promise form with a text
 * and values is changed, which is how Kysely sends every statement; anything else goes as it is.
 */
export function namedStatementClient(names: StatementNames): typeof pg.Client {
  class NamedStatementClient extends pg.Client {
    // biome-ignore lint/suspicious/noExplicitAny: pg's query has many overloads; only one is changed.
    override query(...args: any[]): any {
      const [text, values, callback] = args;
      if (typeof text !== 'string' || !Array.isArray(values) || values.length === 0 || callback)
        return super.query(...(args as Parameters<pg.Client['query']>));
      const name = names.nameOf(text);
      if (name === null) return super.query(text, values);
      return this.runNamed(name, text, values);
    }

    /** Names whose statement must be deallocated on the server before the name is used again. */
    private readonly stale = new Set<string>();

    private async runNamed(name: string, text: string, values: unknown[]): Promise<QueryResult> {
      if (this.stale.size > 0 && this.transactionStatus !== 'E') await this.deallocateStale();
      try {
        return await super.query({ name, text, values });
      } catch (err) {
        if ((err as { code?: string }).code !== CACHED_PLAN_CHANGED) throw err;
        // Another instance's migration changed a table under this connection's statement (its
        // result columns): the statement is dropped, and prepared again at its next use. Inside a
        // transaction the error has already failed it, so the caller sees the error.
        const parsed = (this as unknown as { connection: { parsedStatements: Record<string, string> } })
          .connection.parsedStatements;
        delete parsed[name];
        this.stale.add(name);
        if (this.transactionStatus !== 'I') throw err;
        await this.deallocateStale();
        return super.query(text, values);
      }
    }

    private async deallocateStale(): Promise<void> {
      for (const name of [...this.stale]) {
        // Names are generated (cc_ and hex digits), never user text.
        await super.query(`deallocate "${name}"`).catch(() => {});
        this.stale.delete(name);
      }
    }

    /** pg's view of the connection (from ReadyForQuery): 'I' idle, 'T' in a transaction, 'E' failed. */
    private get transactionStatus(): string | null {
      return (this as unknown as { getTransactionStatus(): string | null }).getTransactionStatus();
    }
  }
  return NamedStatementClient as unknown as typeof pg.Client;
}
