import { randomUUID } from 'node:crypto';
import { API_KEY_ROUTE_RULES, API_KEY_SCOPES, type ApiKeyRouteRule } from '@cc/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiSuite, createTestApp, type TestApp, type TestUser } from '../../../test/helpers.ts';

const REFUSED = 'This API key does not allow this call.';
/** Rows of routes hidden from the OpenAPI document (JSON-RPC), tested in mcp.test.ts. */
const HIDDEN = ['POST /mcp', 'GET /mcp', 'DELETE /mcp'];

/**
 * The route → scope table of personal API keys (`contract/src/api-key-routes.ts`), generated over
 * /api/openapi.json like the permission matrix: every operation has a row, and every row is enforced
 * by the REST gate — a key missing any scope of its row, or any key on a `no key` row, is refused.
 */
apiSuite('API key route → scope table', () => {
  let t: TestApp;
  let alice: TestUser;
  let operations: string[];
  const keys = new Map<string, string>();

  beforeAll(async () => {
    t = await createTestApp({ RUN_WORKER_CONCURRENCY: '0' });
    alice = await t.createUser('ceo');
    const doc = (await t.req({ method: 'GET', url: '/api/openapi.json' })).json() as {
      paths: Record<string, Record<string, unknown>>;
    };
    operations = Object.entries(doc.paths).flatMap(([path, byMethod]) =>
      Object.keys(byMethod).map((m) => `${m.toUpperCase()} ${path}`),
    );
  });
  afterAll(() => t.close());

  /** A key of Alice's holding exactly `scopes` (made once per set). */
  const keyWith = async (scopes: readonly string[]): Promise<string> => {
    const name = [...scopes].sort().join(',');
    const known = keys.get(name);
    if (known) return known;
    const res = await t.req({
      method: 'POST',
      url: '/api/users/me/api-keys',
      token: alice.token,
      body: { name: `scopes ${keys.size}`, scopes },
    });
    expect(res.statusCode, res.body).toBe(201);
    keys.set(name, res.json().secret);
    return res.json().secret;
  };
  const call = (operation: string, token?: string) => {
    const [method, path] = operation.split(' ');
    const url = path.replace(/\{\w+\}/g, randomUUID());
    return t.req({
      method: method as 'GET',
      url,
      token,
      body: method === 'GET' || method === 'DELETE' ? undefined : {},
    });
  };

  it('every operation of the OpenAPI document has exactly one row, and every row an operation', () => {
    const rows = Object.keys(API_KEY_ROUTE_RULES);
    expect(operations.length).toBeGreaterThan(100);
    expect(
      operations.filter((op) => !rows.includes(op)),
      'operations without a row in contract/src/api-key-routes.ts',
    ).toEqual([]);
    expect(
      rows.filter((r) => !operations.includes(r) && !HIDDEN.includes(r)),
      'rows without an operation',
    ).toEqual([]);
  });

  it('a read:goals key reads a goal but not its tasks; with read:tasks too it reads them', async () => {
    const goal = await t.req({
      method: 'POST',
      url: '/api/strategic-goals/',
      token: alice.token,
      body: { title: 'Grow revenue', due_date: '2027-06-30' },
    });
    expect(goal.statusCode).toBe(201);
    const goalId = goal.json().id as string;
    const task = await t.req({
      method: 'POST',
      url: '/api/tasks/',
      token: alice.token,
      body: { title: 'Private pricing plan', goal_id: goalId },
    });
    expect(task.statusCode, task.body).toBe(201);
    const goalsOnly = await keyWith(['read:goals']);
    expect(
      (await t.req({ method: 'GET', url: `/api/strategic-goals/${goalId}`, token: goalsOnly })).statusCode,
    ).toBe(200);
    const leak = await t.req({
      method: 'GET',
      url: `/api/strategic-goals/${goalId}/tasks`,
      token: goalsOnly,
    });
    expect(leak.statusCode).toBe(403);
    expect(leak.json().detail).toBe(REFUSED);
    expect(leak.body).not.toContain('Private pricing plan');
    const both = await keyWith(['read:goals', 'read:tasks']);
    const ok = await t.req({ method: 'GET', url: `/api/strategic-goals/${goalId}/tasks`, token: both });
    expect(ok.statusCode).toBe(200);
    expect(ok.body).toContain('Private pricing plan');
  });

  describe('every row is enforced by the REST gate', () => {
    const rows = Object.entries(API_KEY_ROUTE_RULES) as [string, ApiKeyRouteRule][];
    for (const [operation, rule] of rows) {
      if (HIDDEN.includes(operation)) continue;
      it(`${operation}: ${typeof rule === 'string' ? rule : rule.join(' + ')}`, async () => {
        if (rule === 'public') {
          // Needs no sign-in at all: never the "not authenticated" answer.
          const res = await call(operation);
          expect(res.statusCode, res.body).not.toBe(401);
          return;
        }
        if (rule === 'every key') {
          const res = await call(operation, await keyWith(['read:tasks']));
          expect(res.json().detail ?? null, res.body).not.toBe(REFUSED);
          return;
        }
        if (rule === 'no key') {
          const res = await call(operation, await keyWith(API_KEY_SCOPES));
          expect(res.statusCode, res.body).toBe(403);
          expect(res.json().detail).toBe(REFUSED);
          return;
        }
        // Each scope of the row is needed: every scope but that one is refused.
        for (const needed of rule) {
          const res = await call(operation, await keyWith(API_KEY_SCOPES.filter((s) => s !== needed)));
          expect(res.statusCode, `without ${needed}: ${res.body}`).toBe(403);
          expect(res.json().detail).toBe(REFUSED);
        }
        // And the row's own scopes pass the gate (what follows is the route's business: 404, 422, …).
        const res = await call(operation, await keyWith(rule));
        if (res.statusCode === 403) expect(res.json().detail, res.body).not.toBe(REFUSED);
      });
    }
  });
});
