import { createHash, randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { type Db, nowIso } from '../../db/index.ts';

/**
 * The one writer of the activity ledger (issue 19 §3). Other modules call `recordActivity` with the
 * database handle of their own write (their transaction where they have one), so the entry lands or
 * fails with the change it describes. This file imports no other module: anyone may call it.
 */

/** ui (the web app), api (another client), ai (the assistant for its user) or run:<id>. */
export type ActivityVia = 'ui' | 'api' | 'ai' | `run:${string}`;

export interface ActivityInput {
  actorUserId: string | null;
  /**
   * Where the change came from: a request's {@link viaOf}, `ai`, a run, or `api` for a background job.
   * Required and passed down explicitly: an AsyncLocalStorage holding the request's would turn on V8
   * promise hooks for the whole process on Node 20 (a cost on every promise).
   */
  via: ActivityVia;
  /** `<entity>.<verb>`, e.g. `task.created`, `auth.sign_in_failed`. */
  action: string;
  entityType: string;
  entityId?: string | null;
  summary: string;
  before?: unknown;
  after?: unknown;
  /** The entry can be taken back with POST /api/activity/{id}/undo (an undo handler exists for it). */
  undoable?: boolean;
  /** Set only by the undo itself: the entry this one takes back. */
  undoOf?: string;
}

/** Keys whose values are secrets: never stored, whatever object they appear in. */
const SECRET_KEY =
  /pass(word)?|hash|token|secret|api[_-]?key|apikey|authorization|cookie|credential|private[_-]?key|^key$/i;
const SUMMARY_MAX = 500;
const JSON_MAX = 16_000;

/** A copy of `value` with every secret-named key removed (deeply); strings inside stay as they are. */
export function withoutSecrets(value: unknown, depth = 0): unknown {
  if (value === null || value === undefined) return null;
  if (depth > 8) return null;
  if (Array.isArray(value)) return value.map((v) => withoutSecrets(v, depth + 1));
  if (typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      if (!SECRET_KEY.test(k)) out[k] = withoutSecrets(v, depth + 1);
    }
    return out;
  }
  return value;
}

/** Bytes of a tool call's arguments the ledger keeps word for word; the rest is known by its digest. */
export const ARGUMENTS_PREVIEW_BYTES = 1024;

/** What the ledger keeps of a tool call's arguments: their digest, their size and their first 1 KB. */
export interface ArgumentsDigest {
  /** sha-256 (hex) of the arguments' JSON, secret-named keys removed. */
  sha256: string;
  bytes: number;
  /** The JSON's first {@link ARGUMENTS_PREVIEW_BYTES} bytes (never cutting a character). */
  preview: string;
  truncated: boolean;
}

/**
 * A tool call's arguments as the ledger records them: a batch of calls with large arguments must not
 * write their full copy a second time (the record the call made already holds what it needs).
 */
export function argumentsDigest(args: unknown): ArgumentsDigest {
  const text = JSON.stringify(withoutSecrets(args)) ?? 'null';
  const bytes = Buffer.byteLength(text);
  let preview = text.slice(0, ARGUMENTS_PREVIEW_BYTES);
  while (Buffer.byteLength(preview) > ARGUMENTS_PREVIEW_BYTES) preview = preview.slice(0, -1);
  return {
    sha256: createHash('sha256').update(text).digest('hex'),
    bytes,
    preview,
    truncated: preview.length < text.length,
  };
}

function json(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  const text = JSON.stringify(withoutSecrets(value));
  // A huge before/after (a long note) is cut rather than refused: the ledger must never fail the write.
  return text.length <= JSON_MAX ? text : JSON.stringify({ truncated: true, preview: text.slice(0, 2000) });
}

/** Appends one entry and returns its id. Call it with the transaction of the write it describes. */
export async function recordActivity(db: Db, entry: ActivityInput): Promise<string> {
  const id = randomUUID();
  await db
    .insertInto('activity')
    .values({
      id,
      ts: nowIso(),
      actor_user_id: entry.actorUserId,
      via: entry.via,
      action: entry.action,
      entity_type: entry.entityType,
      entity_id: entry.entityId ?? null,
      summary: entry.summary.slice(0, SUMMARY_MAX),
      before: json(entry.before),
      after: json(entry.after),
      undoable: entry.undoable ? 1 : 0,
      undo_of: entry.undoOf ?? null,
    })
    .execute();
  return id;
}

/**
 * For events recorded outside the write they describe (an outbound call, a failed sign-in): a ledger
 * fault is logged by the caller's process warning and never fails the request or the run.
 */
export async function recordActivitySafely(db: Db, entry: ActivityInput): Promise<void> {
  try {
    await recordActivity(db, entry);
  } catch (err) {
    process.emitWarning(`activity entry not recorded (${entry.action}): ${(err as Error).message}`);
  }
}

/** The header the web app sends with every request, so its writes are told apart from API clients'. */
export const CLIENT_HEADER = 'x-cc-client';

/** Where a person's request came from: the web app (`ui`) or any other client (`api`). */
export function viaOf(req: FastifyRequest | { headers: Record<string, unknown> }): ActivityVia {
  return req.headers[CLIENT_HEADER] === 'web' ? 'ui' : 'api';
}
