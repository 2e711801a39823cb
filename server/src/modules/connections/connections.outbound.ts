import { isIP } from 'node:net';
import { Allowlist } from '../../ai/net/ip-policy.ts';
import { checkUrl, FetchLimitError, UnsafeUrlError } from '../../ai/net/safe-fetch.ts';
import type { AppContext } from '../../platform/context.ts';

/**
 * The outbound address policy of connections (docs/decisions/247): a connection's host is the same
 * kind of person-chosen destination as an HTTP tool's, so it follows the product's SSRF policy —
 * public addresses only, private and loopback ones when the operator names them in AI_HTTP_ALLOWLIST.
 * Checked at every connect, never when a connection is saved (no DNS in a request that saves).
 */

/** A failure whose message is a sentence for the person (never a server's answer or a password). */
export class ConnectionError extends Error {
  override name = 'ConnectionError';
}

/** Resolves `host` and returns the address to connect to, or throws a ConnectionError saying why not. */
export async function allowedAddress(ctx: AppContext, host: string): Promise<string> {
  const bare = host.replace(/^\[|\]$/g, '');
  const url = new URL(`http://${isIP(bare) === 6 ? `[${bare}]` : bare}/`);
  try {
    return (await checkUrl(url, new Allowlist(ctx.config.ai.httpAllowlist))).address;
  } catch (err) {
    throw new ConnectionError(refusal(err));
  }
}

function refusal(err: unknown): string {
  if (err instanceof UnsafeUrlError) {
    return `${err.message} An operator can allow it with AI_HTTP_ALLOWLIST (e.g. for a server on this network).`;
  }
  return 'The server address could not be checked.';
}

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
]);

/** The sentence a failed test or sync shows: ours when we know it, a plain one otherwise. */
export function describeFailure(err: unknown, host: string): string {
  if (err instanceof ConnectionError) return err.message;
  if (err instanceof UnsafeUrlError) return refusal(err);
  if (err instanceof FetchLimitError) return `${host} answered too slowly or with too much data.`;
  const e = err as {
    code?: string;
    cause?: { code?: string };
    authenticationFailed?: boolean;
    name?: string;
  };
  if (e?.authenticationFailed) return `${host} refused the user name or password.`;
  const code = e?.code ?? e?.cause?.code;
  if (code && NETWORK_CODES.has(code)) return `Could not reach ${host}: the server did not answer.`;
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError') return `${host} did not answer in time.`;
  return `The sync with ${host} failed unexpectedly; it will be tried again.`;
}
