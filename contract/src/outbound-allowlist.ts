import { z } from 'zod';

/**
 * Issue 46 row 5: an outbound call whose arguments a model chose waits for a person, unless a platform
 * administrator marked its method and destination side-effect-free here. A destination is an http(s)
 * origin with an optional path prefix (no query, no fragment, no credentials); it covers that path and
 * everything under it.
 */
export const OUTBOUND_ALLOWLIST_METHODS = ['GET', 'POST'] as const;
export const OUTBOUND_ALLOWLIST_MAX = 200;
export const DESTINATION_INVALID =
  'A destination is an http(s) address without query, fragment or credentials (e.g. https://api.example.com/v1/search)';
export const DESTINATION_DUPLICATE = 'Each method and destination may be listed once';

/** The canonical form of a destination (origin + path without a trailing slash), or null when invalid. */
export function normalizeDestination(text: string): string | null {
  let u: URL;
  try {
    u = new URL(text.trim());
  } catch {
    return null;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
  if (u.username || u.password || u.search || u.hash || text.includes('?') || text.includes('#')) return null;
  return `${u.origin}${u.pathname.replace(/\/+$/, '')}`;
}

/** An entry as sent back: what the list returned (its `created_at` is the server's and is ignored). */
export const ZOutboundAllowlistEntry = z.object({
  method: z.enum(OUTBOUND_ALLOWLIST_METHODS),
  destination: z
    .string()
    .max(2_000)
    .transform((d, c) => {
      const n = normalizeDestination(d);
      if (n === null) {
        c.addIssue({ code: 'custom', message: DESTINATION_INVALID });
        return z.NEVER;
      }
      return n;
    }),
  /** Why it is safe (shown to administrators). */
  note: z.string().trim().max(500).nullable().optional(),
});
export type TOutboundAllowlistEntryInput = z.input<typeof ZOutboundAllowlistEntry>;

/** PUT /api/admin/outbound-allowlist: the whole list (it replaces the stored one). */
export const ZOutboundAllowlistRequest = z.strictObject({
  entries: z
    .array(ZOutboundAllowlistEntry)
    .max(OUTBOUND_ALLOWLIST_MAX)
    .superRefine((entries, c) => {
      const seen = new Set<string>();
      for (const [i, e] of entries.entries()) {
        const key = `${e.method} ${e.destination}`;
        if (seen.has(key))
          c.addIssue({ code: 'custom', message: DESTINATION_DUPLICATE, path: [i, 'destination'] });
        seen.add(key);
      }
    }),
});
export type TOutboundAllowlistRequest = z.input<typeof ZOutboundAllowlistRequest>;

export const ZOutboundAllowlist = z.object({
  entries: z.array(
    z.object({
      method: z.enum(OUTBOUND_ALLOWLIST_METHODS),
      destination: z.string(),
      note: z.string().nullable(),
      created_at: z.string(),
    }),
  ),
});
export type TOutboundAllowlist = z.infer<typeof ZOutboundAllowlist>;

/** True when a call of `method` to `url` is covered by an entry (same origin, path at or under it). */
export function allowlistCovers(
  entries: readonly { method: string; destination: string }[],
  method: string,
  url: string,
): boolean {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  const path = u.pathname.replace(/\/+$/, '');
  return entries.some((e) => {
    if (e.method !== method.toUpperCase()) return false;
    const d = new URL(e.destination);
    if (d.origin !== u.origin) return false;
    const prefix = d.pathname.replace(/\/+$/, '');
    return prefix === '' || path === prefix || path.startsWith(`${prefix}/`);
  });
}
