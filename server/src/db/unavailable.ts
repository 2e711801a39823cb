/**
 * Which errors mean "the database cannot be reached right now" rather than "this request is wrong":
 * the error handler answers those with 503 and `Retry-After`, so clients retry instead of reporting a
 * bug, and an operator sees an outage, not a crash (docs/operations.md, "Database outages").
 */

/** Node socket errors of a connection that could not be opened or was cut. */
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * PostgreSQL SQLSTATEs: class 08 (connection exception), 53 (insufficient resources: too many
 * connections, disk full), 57P01–57P05 (the server is shutting down, was restarted, or is starting up,
 * or an administrator terminated the session).
 */
const PG_STATE = /^(08|53)|^57P0[1-5]$/;

/**
 * A named statement whose table another instance's migration changed (pg-named-statements.ts): it
 * fails the transaction it ran in once, and the statement is prepared anew at its next use.
 */
const PG_PLAN_CHANGED = 'cached plan must not change result type';

/**
 * SQLite result codes (better-sqlite3 `err.code`): another writer holds the file, the disk failed, or a
 * transaction was rolled back by the database after such a failure (commit-group.ts).
 */
const SQLITE_CODE = /^SQLITE_(BUSY|LOCKED|IOERR|FULL|CANTOPEN|PROTOCOL|NOMEM|ABORT)/;

/** What node-postgres and the pool say when a connection died or never came up (they carry no code). */
const PG_MESSAGES = [
  'Connection terminated',
  'connection error and is not queryable',
  'timeout exceeded when trying to connect',
  'Client was closed and is not queryable',
  'Connection terminated due to connection timeout',
  // The pool itself after it was ended (shutdown), asked directly (the read cache's change feed).
  'Cannot use a pool after calling end on the pool',
];

/** File system errors of the SQLite WAL flush (server/src/db/durability.ts). */
const FS_CODES = new Set(['EIO', 'ENOSPC', 'EROFS']);

function matchesOne(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  const { code, message } = err as { code?: unknown; message?: unknown };
  if (typeof code === 'string') {
    if (SOCKET_CODES.has(code) || FS_CODES.has(code)) return true;
    if (SQLITE_CODE.test(code)) return true;
    if (/^[0-9A-Z]{5}$/.test(code) && PG_STATE.test(code)) return true;
    if (code === '0A000' && typeof message === 'string' && message.includes(PG_PLAN_CHANGED)) return true;
  }
  if (typeof message === 'string') {
    if (PG_MESSAGES.some((m) => message.includes(m))) return true;
    // better-sqlite3 after the handle was closed (shutdown, a failed open).
    if (message === 'The database connection is not open') return true;
    // Kysely after the pool was destroyed.
    if (message.includes('driver has already been destroyed')) return true;
  }
  return false;
}

/** True when `err` (or an error it wraps, or one of an AggregateError's) says the database is unreachable. */
export function isDatabaseUnavailable(err: unknown): boolean {
  const seen = new Set<unknown>();
  let current: unknown = err;
  while (current && typeof current === 'object' && !seen.has(current)) {
    seen.add(current);
    if (matchesOne(current)) return true;
    if (current instanceof AggregateError && current.errors.some(isDatabaseUnavailable)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** The one message a client sees during an outage, with {@link RETRY_AFTER_SECONDS}. */
export const UNAVAILABLE_DETAIL =
  'The service is temporarily unavailable. Please try again in a few seconds.';
export const RETRY_AFTER_SECONDS = 5;
