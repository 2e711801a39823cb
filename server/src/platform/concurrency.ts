import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { AppError } from './errors.ts';

/**
 * Optimistic concurrency (issue 16 §4). A record's version is its `updated_at`; `GET` by id sends it
 * as a strong `ETag` (it names the record's version, which is what `If-Match` protects), every
 * PUT/PATCH answer sends the new one, and a write whose `If-Match` names an older version gets 412
 * and changes nothing. No `If-Match` (or `*`) writes as before.
 */

export const STALE_VERSION_DETAIL =
  'This item was changed by someone else. Reload it to see the latest version before saving.';

export const etagOf = (updatedAt: string) => `"${updatedAt}"`;

/** The versions a write may apply to, from `If-Match`; `null` when it may apply to any. */
export interface Precondition {
  check(currentUpdatedAt: string): void;
}

/** Writes without `If-Match`: no condition. */
export const ANY_VERSION: Precondition = { check() {} };

export function preconditionOf(req: FastifyRequest): Precondition {
  const header = req.headers['if-match'];
  if (!header) return ANY_VERSION;
  // A weak tag from a cache or proxy names the same version: compared by its opaque value.
  const tags = header
    .split(',')
    .map((t) => t.trim().replace(/^W\//, ''))
    .filter(Boolean);
  if (tags.includes('*')) return ANY_VERSION;
  return {
    check(current) {
      if (!tags.includes(etagOf(current))) throw new AppError(412, STALE_VERSION_DETAIL);
    },
  };
}

/**
 * The `updated_at` of a write: now, or 1 ms after the previous version when the clock has not moved
 * past it, so two writes in one millisecond still get two versions (and two ETags).
 */
export function nextVersion(previous: string, now = new Date()): string {
  const prev = Date.parse(previous);
  return Number.isFinite(prev) && now.getTime() <= prev
    ? new Date(prev + 1).toISOString()
    : now.toISOString();
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Set at registration: the 200 body is one record with `updated_at`, sent as the ETag. */
    etag?: boolean;
  }
}

function hasUpdatedAt(schema: unknown): boolean {
  const def = (schema as z.core.$ZodType | undefined)?._zod?.def as
    | { type: string; shape?: Record<string, unknown> }
    | undefined;
  return def?.type === 'object' && !!def.shape && 'updated_at' in def.shape;
}

/**
 * Sends `ETag` on every answer that is one record with `updated_at` (GET by id, PUT/PATCH). It reads
 * the body as sent, so a body served from the read cache carries the same tag as a fresh one.
 */
export function registerEtags(app: FastifyInstance) {
  app.addHook('onRoute', (route) => {
    const methods = [route.method].flat();
    if (!methods.some((m) => m === 'GET' || m === 'PUT' || m === 'PATCH')) return;
    const response = (route.schema as { response?: Record<number, unknown> } | undefined)?.response;
    if (hasUpdatedAt(response?.[200])) route.config = { ...route.config, etag: true };
  });

  app.addHook('onSend', async (req, reply, payload) => {
    if (!req.routeOptions.config?.etag || reply.statusCode !== 200) return payload;
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
    try {
      const updatedAt = (JSON.parse(payload.toString()) as { updated_at?: unknown }).updated_at;
      if (typeof updatedAt === 'string') reply.header('etag', etagOf(updatedAt));
    } catch {
      // Not JSON: no tag.
    }
    return payload;
  });
}
