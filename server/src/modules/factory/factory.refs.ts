import { ZodError } from 'zod';
import type { AuthUser } from '../../platform/auth/authenticate.ts';
import type { AppContext } from '../../platform/context.ts';
import * as repo from './factory.repository.ts';

type RefTable = 'factory_agents' | 'factory_tools';
const NOUN: Record<RefTable, string> = { factory_agents: 'agent', factory_tools: 'tool' };

/** One way a body names an agent or tool: which field, and whether it holds an id, a name or either. */
export interface RefField {
  path: (string | number)[];
  value: string | null | undefined;
  as: 'id' | 'name' | 'id-or-name';
}

/** A 422 whose detail names the field (loc), like a schema failure. */
function fieldError(path: (string | number)[], message: string): ZodError {
  return new ZodError([{ code: 'custom', path, message, input: undefined }]);
}

/**
 * Resolves the fields naming one agent (or tool) to its id among the items the caller may see:
 * null when none is given; 422 on the field when a value names nothing visible, or when two
 * fields name different items. A name matches the caller's own item first, then a public one,
 * then the built-in catalogue.
 */
export async function resolveRef(
  ctx: AppContext,
  caller: AuthUser,
  table: RefTable,
  fields: readonly RefField[],
): Promise<string | null> {
  let found: { id: string; field: RefField } | null = null;
  for (const field of fields) {
    const value = field.value?.trim();
    if (!value) continue;
    const id = await lookup(ctx, caller, table, value, field.as);
    const last = field.path[field.path.length - 1];
    if (!id) throw fieldError(field.path, `Unknown ${NOUN[table]}: ${value}`);
    if (found && found.id !== id) {
      const first = found.field.path[found.field.path.length - 1];
      throw fieldError(field.path, `${String(first)} and ${String(last)} name different ${NOUN[table]}s`);
    }
    found = { id, field };
  }
  return found?.id ?? null;
}

async function lookup(
  ctx: AppContext,
  caller: AuthUser,
  table: RefTable,
  value: string,
  as: RefField['as'],
): Promise<string | null> {
  if (as !== 'name') {
    const row = await repo.findById(ctx.db, table, value);
    if (row && (row.created_by === caller.id || row.is_public === 1 || row.is_auto_gen === 1)) return row.id;
    if (as === 'id') return null;
  }
  return (await repo.findVisibleByNamePreferOwn(ctx.db, table, value, caller.id))?.id ?? null;
}
