import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { acceptingEcho, readOnlyKeys } from './echo-body.ts';

const entity = z.object({
  id: z.string(),
  name: z.string(),
  can_edit: z.boolean(),
  items: z.array(z.object({ position: z.number(), label: z.string() })),
});
const update = z.strictObject({
  name: z.string().optional(),
  items: z.array(z.strictObject({ label: z.string() })).optional(),
});

describe('acceptingEcho', () => {
  const body = acceptingEcho(update, entity) as z.ZodType;

  it('drops the entity keys the update lacks, at every level, and keeps the rest', () => {
    const echoed = { id: 'x', name: 'New', can_edit: true, items: [{ position: 0, label: 'a' }] };
    expect(body.parse(echoed)).toEqual({ name: 'New', items: [{ label: 'a' }] });
  });

  it('still refuses a key neither schema knows, at the top and nested', () => {
    expect(body.safeParse({ name: 'A', nope: 1 }).success).toBe(false);
    expect(body.safeParse({ items: [{ label: 'a', nope: 1 }] }).success).toBe(false);
  });

  it('names the read-only keys and leaves an update without any as it is', () => {
    expect(readOnlyKeys(update, entity).sort()).toEqual(['can_edit', 'id']);
    expect(acceptingEcho(update, z.object({ name: z.string() }))).toBe(update);
  });
});
