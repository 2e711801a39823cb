import { MATRIX_ENV } from '../../test/permission-matrix/index.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiSuite, createTestApp, type TestApp } from '../../test/helpers.ts';
import { buildWorld, CALLERS, MATRIX, statusesOf, type World } from '../../test/permission-matrix/index.ts';

/**
 * The role × relation permission matrix (server/test/permission-matrix/, docs/testing.md): every
 * operation of /api/openapi.json has a row, and every row is called as every caller, who must get
 * exactly the status the row says. A new route cannot land without saying who may call it.
 */
apiSuite('permission matrix', () => {
  let t: TestApp;
  let w: World;
  let operations: string[];
  beforeAll(async () => {
    // No run worker: runs stay queued, so a run's status does not race the calls on it.
    t = await createTestApp({ RUN_WORKER_CONCURRENCY: '0', ...MATRIX_ENV });
    w = await buildWorld(t);
    const doc = (await t.req({ method: 'GET', url: '/api/openapi.json' })).json() as {
      paths: Record<string, Record<string, unknown>>;
    };
    operations = Object.entries(doc.paths).flatMap(([path, byMethod]) =>
      Object.keys(byMethod).map((m) => `${m.toUpperCase()} ${path}`),
    );
  });
  afterAll(() => t.close());

  const rows = Object.values(MATRIX).flat();

  it('every operation of the OpenAPI document has exactly one row, and every row an operation', () => {
    const keys = rows.map((r) => r.op);
    expect(operations.length).toBeGreaterThan(100);
    expect(
      operations.filter((op) => !keys.includes(op)),
      'operations without a row',
    ).toEqual([]);
    expect(
      keys.filter((k) => !operations.includes(k)),
      'rows without an operation',
    ).toEqual([]);
    expect(
      keys.filter((k, i) => keys.indexOf(k) !== i),
      'operations with two rows',
    ).toEqual([]);
  });

  for (const [domain, domainRows] of Object.entries(MATRIX)) {
    describe(domain, () => {
      for (const row of domainRows) {
        it(row.op, async () => {
          const got = await statusesOf(w, row);
          const wrong = CALLERS.filter((c) => got[c] !== row.expect[c]).map(
            (c) => `${c} got ${got[c]}, expected ${row.expect[c]}`,
          );
          expect(got, wrong.join('; ')).toEqual(row.expect);
        });
      }
    });
  }
});
