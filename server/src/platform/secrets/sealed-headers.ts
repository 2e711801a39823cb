import { openSecret, sealSecret } from './secret-box.ts';

/**
 * Request headers kept as a secret (an MCP server's): the names in clear, so the API can say which
 * headers are set, and the name-value pairs sealed with SECRETS_KEY. Stored as JSON text.
 */
interface StoredHeaders {
  names: string[];
  sealed: string;
}

export function sealHeaders(key: string, headers: Record<string, string>): string | null {
  const names = Object.keys(headers);
  if (names.length === 0) return null;
  return JSON.stringify({ names, sealed: sealSecret(key, JSON.stringify(headers)) } satisfies StoredHeaders);
}

function parse(stored: string | null): StoredHeaders | null {
  if (!stored) return null;
  try {
    const v = JSON.parse(stored) as StoredHeaders;
    return Array.isArray(v.names) && typeof v.sealed === 'string' ? v : null;
  } catch {
    return null;
  }
}

export const headerNamesOf = (stored: string | null): string[] => parse(stored)?.names ?? [];

/** The headers to send; `{}` when there are none or they cannot be opened (the server then refuses). */
export function openHeaders(key: string, stored: string | null): Record<string, string> {
  const p = parse(stored);
  const text = p ? openSecret(key, p.sealed) : null;
  if (!text) return {};
  try {
    return JSON.parse(text) as Record<string, string>;
  } catch {
    return {};
  }
}
