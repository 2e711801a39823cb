import type { AppContext } from '../../platform/context.ts';
import { type ActivityVia, recordActivitySafely } from '../../modules/activity/activity.ledger.ts';

/** One request a tool sent outside the workspace, as the ledger records it. */
export interface ExternalCall {
  tool: string;
  method: string;
  url: string;
  /** The answer's status; null when no answer came (refused address, timeout, network error). */
  status: number | null;
  error?: string;
}

export type ExternalCallListener = (call: ExternalCall) => Promise<void>;

/**
 * The destination without its query values or credentials: an API key in a query string or in
 * `user:pass@` never reaches the ledger; the parameter names stay, so the call is still recognisable.
 */
export function destinationOf(url: string): string {
  try {
    const u = new URL(url);
    const names = [...new Set(u.searchParams.keys())];
    return `${u.origin}${u.pathname}${names.length ? `?${names.map((n) => `${n}=…`).join('&')}` : ''}`;
  } catch {
    return '(invalid URL)';
  }
}

/**
 * A listener that writes `external.call` entries for `userId` (issue 19 §3: external calls made by
 * tools, with their destination and status). It never throws: the tool's result does not depend on it.
 */
export function externalCallRecorder(
  ctx: AppContext,
  userId: string,
  via: ActivityVia,
): ExternalCallListener {
  return async (call) => {
    const destination = destinationOf(call.url);
    const outcome = call.status !== null ? `${call.status}` : `failed: ${call.error ?? 'no answer'}`;
    await recordActivitySafely(ctx.db, {
      actorUserId: userId,
      via,
      action: 'external.call',
      entityType: 'external_call',
      entityId: null,
      summary: `${call.tool}: ${call.method} ${destination} → ${outcome}`,
      after: {
        tool: call.tool,
        method: call.method,
        destination,
        status: call.status,
        error: call.error ?? null,
      },
    });
  };
}
