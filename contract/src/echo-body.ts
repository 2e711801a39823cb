import { z } from 'zod';

/**
 * Round-trip bodies: a client may send back, as a PUT/PATCH body, the object the server returned
 * (with `id`, `created_at`, `updated_at`, `can_*`, joined names…) plus its change. The keys the
 * entity has and the update does not are the server's own: they are removed before the update's
 * strict check, so they are never applied, while a key neither schema knows still gets 422.
 */

interface EchoPlan {
  /** Read-only keys at this level. */
  drop: Set<string>;
  /** Keys both schemas share whose values (objects or arrays of objects) have read-only keys too. */
  nested: Map<string, EchoPlan>;
}

type AnySchema = z.core.$ZodType;

/** The schema under optional/nullable/default wrappers and the input side of pipes. */
function unwrap(schema: AnySchema): AnySchema {
  let s = schema;
  for (let i = 0; i < 20; i++) {
    const def = s._zod.def as unknown as {
      type: string;
      innerType?: AnySchema;
      in?: AnySchema;
      out?: AnySchema;
    };
    if (def.innerType) s = def.innerType;
    else if (def.type === 'pipe' && def.in && def.out)
      s = def.in._zod.def.type === 'transform' ? def.out : def.in;
    else return s;
  }
  return s;
}

function shapeOf(schema: AnySchema): Record<string, AnySchema> | null {
  const s = unwrap(schema);
  if (s._zod.def.type !== 'object') return null;
  return (s._zod.def as unknown as { shape: Record<string, AnySchema> }).shape;
}

/** An array's element schema, or the schema itself. */
function elementOf(schema: AnySchema): AnySchema {
  const s = unwrap(schema);
  return s._zod.def.type === 'array' ? (s._zod.def as unknown as { element: AnySchema }).element : s;
}

function planFor(update: AnySchema, entity: AnySchema): EchoPlan | null {
  const u = shapeOf(update);
  const e = shapeOf(entity);
  if (!u || !e) return null;
  const drop = new Set(Object.keys(e).filter((k) => !(k in u)));
  const nested = new Map<string, EchoPlan>();
  for (const key of Object.keys(e)) {
    if (!(key in u)) continue;
    const sub = planFor(elementOf(u[key]), elementOf(e[key]));
    if (sub) nested.set(key, sub);
  }
  return drop.size || nested.size ? { drop, nested } : null;
}

function strip(value: unknown, plan: EchoPlan): unknown {
  if (Array.isArray(value)) return value.map((v) => strip(v, plan));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if (plan.drop.has(key)) continue;
    const sub = plan.nested.get(key);
    out[key] = sub ? strip(v, sub) : v;
  }
  return out;
}

/** The keys of `entity` a round-trip body may carry and that `update` ignores (for docs and tests). */
export function readOnlyKeys(update: AnySchema, entity: AnySchema): string[] {
  return [...(planFor(update, entity)?.drop ?? [])];
}

/**
 * `update`, accepting also `entity`'s server-owned keys (at every nesting level), which are dropped
 * unread. The OpenAPI document still shows `update` (a preprocess step documents as its target).
 */
export function acceptingEcho(update: AnySchema, entity: AnySchema): AnySchema {
  const plan = planFor(update, entity);
  if (!plan) return update;
  return z.preprocess((v) => strip(v, plan), update);
}
