import type { FastifyInstance } from 'fastify';
import { AppError } from './errors.ts';

/**
 * PostgreSQL text cannot hold U+0000 (the query fails: a 500), SQLite stores it: so that both engines
 * answer alike, a NUL anywhere in a request's path parameters, query or JSON body (values and keys)
 * is refused here, once for every route, with a 422 naming the field. One hook rather than a
 * refinement on each string schema: a new field or route is covered without anyone remembering to.
 */
export function registerNulGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (req) => {
    const loc =
      nulAt(req.params, ['params']) ?? nulAt(req.query, ['querystring']) ?? nulAt(req.body, ['body']);
    if (loc) {
      throw new AppError(422, [
        { loc, msg: 'Must not contain a NUL character (\\u0000)', type: 'nul_character' },
      ]);
    }
  });
}

/** The path of the first string (or key) holding a NUL; iterative, so deep JSON cannot overflow the stack. */
export function nulAt(root: unknown, base: (string | number)[]): (string | number)[] | null {
  const stack: { value: unknown; at: (string | number)[] }[] = [{ value: root, at: base }];
  while (stack.length) {
    const { value, at } = stack.pop() as { value: unknown; at: (string | number)[] };
    if (typeof value === 'string') {
      if (value.includes('\u0000')) return at;
    } else if (Array.isArray(value)) {
      value.forEach((v, i) => stack.push({ value: v, at: [...at, i] }));
    } else if (value && typeof value === 'object' && !Buffer.isBuffer(value)) {
      for (const [k, v] of Object.entries(value)) {
        if (k.includes('\u0000')) return [...at, k];
        stack.push({ value: v, at: [...at, k] });
      }
    }
  }
  return null;
}
