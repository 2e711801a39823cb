import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { apiSuite, createTestApp, type TestApp, type TestUser } from '../../test/helpers.ts';

/** The operations anyone may call without a token. A new public route must be added here on purpose. */
const PUBLIC = new Set([
  'GET /api/public-config',
  'POST /api/auth/token',
  'POST /api/users/register',
  // single sign-on: the browser arrives without a session
  'GET /api/auth/oidc/start',
  'GET /api/auth/oidc/callback',
  'POST /api/auth/oidc/exchange',
  'POST /api/auth/oidc/link',
  // the secret of a link e-mailed to the address is the credential
  'POST /api/auth/email/confirm',
]);

/** The operations a waitlisted account may call (its own profile, signing out). */
const WAITLIST_OPEN = new Set([
  'GET /api/users/me',
  'PATCH /api/users/me',
  'POST /api/auth/logout',
  // the waitlist page offers the verification link again
  'POST /api/users/me/email-verification',
]);

interface Operation {
  key: string;
  method: string;
  path: string;
  hasBody: boolean;
}

/**
 * A request no schema accepts: every path parameter is not an id, the usual query parameters have
 * the wrong type, and a body (where the route takes one) carries only an unknown field. Without the
 * authentication check running first, these answer 400/404/422 and name the schema's fields.
 */
function invalidRequest(op: Operation, token: string | undefined, queryToken?: string) {
  const url = `${op.path.replace(/\{[^}]+\}/g, 'not-an-id')}?limit=abc&skip=-1&conversation_id=zzz${
    queryToken ? `&token=${queryToken}` : ''
  }`;
  return { method: op.method as 'GET', url, token, body: op.hasBody ? { unknown_field: [1] } : undefined };
}

apiSuite('authentication runs before anything else, on every route of the OpenAPI document', () => {
  let t: TestApp;
  let ops: Operation[];
  let waitlisted: TestUser;
  beforeAll(async () => {
    t = await createTestApp();
    waitlisted = await t.createUser('waitlisted');
    const doc = (await t.req({ method: 'GET', url: '/api/openapi.json' })).json() as {
      paths: Record<string, Record<string, { requestBody?: unknown }>>;
    };
    ops = Object.entries(doc.paths).flatMap(([path, byMethod]) =>
      Object.entries(byMethod).map(([m, op]) => ({
        key: `${m.toUpperCase()} ${path}`,
        method: m.toUpperCase(),
        path,
        hasBody: op.requestBody !== undefined || ['POST', 'PUT', 'PATCH'].includes(m.toUpperCase()),
      })),
    );
  });
  afterAll(() => t.close());

  const statuses = async (call: (op: Operation) => Promise<LightMyRequestResponse>, only = ops) => {
    const got: Record<string, number> = {};
    for (const op of only) got[op.key] = (await call(op)).statusCode;
    return got;
  };

  it('the document lists the routes (the checks below are not vacuous)', () => {
    expect(ops.length).toBeGreaterThan(100);
    for (const key of [...PUBLIC, ...WAITLIST_OPEN]) expect(ops.map((o) => o.key)).toContain(key);
  });

  it('no token and an invalid request: 401 on every route not listed as public, and every listed one is public', async () => {
    const got = await statuses((op) => t.req(invalidRequest(op, undefined)));
    const expected = Object.fromEntries(
      ops.map((op) => [op.key, PUBLIC.has(op.key) ? expect.not.toBeOneOf([401]) : 401]),
    );
    expect(got).toEqual(expected);
  });

  it('a token that is not a valid session: 401 on every protected route, in the header or as a stream ?token=', async () => {
    const guarded = ops.filter((op) => !PUBLIC.has(op.key));
    const header = await statuses((op) => t.req(invalidRequest(op, 'not-a-valid-token')), guarded);
    expect(header).toEqual(Object.fromEntries(guarded.map((op) => [op.key, 401])));
    const streams = guarded.filter((op) => op.path.endsWith('/events'));
    expect(streams.length).toBeGreaterThanOrEqual(3);
    const query = await statuses((op) => t.req(invalidRequest(op, undefined, 'st_unknown-ticket')), streams);
    expect(query).toEqual(Object.fromEntries(streams.map((op) => [op.key, 401])));
  });

  it('a waitlisted account: 403 before validation on every route not open to it, and the open ones answer', async () => {
    const guarded = ops.filter((op) => !PUBLIC.has(op.key));
    // Signing out ends the session it is called with: every call gets a session of its own.
    const got = await statuses(
      async (op) =>
        t.req(
          invalidRequest(op, WAITLIST_OPEN.has(op.key) ? await t.login(waitlisted.email) : waitlisted.token),
        ),
      guarded,
    );
    const expected = Object.fromEntries(
      guarded.map((op) => [op.key, WAITLIST_OPEN.has(op.key) ? expect.not.toBeOneOf([401, 403]) : 403]),
    );
    expect(got).toEqual(expected);
  });
});
