import type { FastifyInstance } from 'fastify';
import { AppError } from './errors.ts';

/**
 * PostgreSQL text cannot hold U+0000 (the query fails: a 500), SQLite stores it: so that both engines
 * answer alike, a NUL anywhere in a request's path parameters, query or JSON body (values and keys)
 * is refused here, once for every route, with a 422 naming the field. One hook rather than a
 * refinement on each string schema: a new field or route is covered without anyone remembering to.
 */
export function registerNulGuard(app: FastifyInstance): void {
  app.addHook('preValidation', (req, _reply, done) => {
    const loc =
      nulAt(req.params, ['params']) ?? nulAt(req.query, ['querystring']) ?? nulAt(req.body, ['body']);
    if (!loc) return done();
    done(
      new AppError(422, [{ loc, msg: 'Must not contain a NUL character (\\u0000)', type: 'nul_character' }]),
    );
  });
}

interface Visit {
  value: unknown;
  key: string | number | null;
  parent: Visit | null;
}

/**
 * The path of the first string (or key) holding a NUL. Iterative, and each visit keeps only its key and
 * parent (the path is built once, when found), so a deeply nested body costs linear time and no stack.
 */
export function nulAt(root: unknown, base: (string | number)[]): (string | number)[] | null {
  // Nearly every request has none: JSON escapes U+0000 as \u0000, so one native pass rules it out
  // (text that merely spells "\u0000" falls through to the exact walk below).
  if (root == null) return null;
  if (typeof root === 'string') return root.includes('\u0000') ? base : null;
  if (typeof root === 'object' && !Buffer.isBuffer(root) && !mayHoldNul(root)) return null;
  const pathOf = (v: Visit | null): (string | number)[] => {
    const keys: (string | number)[] = [];
    for (let n = v; n && n.key !== null; n = n.parent) keys.unshift(n.key);
    return [...base, ...keys];
  };
  const stack: Visit[] = [{ value: root, key: null, parent: null }];
  while (stack.length) {
    const visit = stack.pop() as Visit;
    const { value } = visit;
    if (typeof value === 'string') {
      if (value.includes('\u0000')) return pathOf(visit);
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], key: i, parent: visit });
    } else if (value && typeof value === 'object' && !Buffer.isBuffer(value)) {
      const entries = Object.entries(value);
      for (const [k] of entries) if (k.includes('\u0000')) return [...pathOf(visit), k];
      for (let i = entries.length - 1; i >= 0; i--) {
        stack.push({ value: entries[i][1], key: entries[i][0], parent: visit });
      }
    }
  }
  return null;
}

function mayHoldNul(value: object): boolean {
  try {
    return JSON.stringify(value).includes('\\u0000');
  } catch {
    // Not JSON (a cycle, a BigInt): the walk decides.
    return true;
  }
}
