import { afterAll, beforeAll, expect, it } from 'vitest';
import { apiSuite, createTestApp, type TestApp } from '../../test/helpers.ts';

type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  items?: Schema;
  $ref?: string;
};

/**
 * Lists whose rows are not records a client edits: projections of other records (people, references),
 * immutable logs (run events) and catalogues (models). Each needs no version of its own.
 */
const NOT_RECORDS = new Set([
  'GET /api/contacts/assignable', // people you may assign to: a view of users
  'GET /api/models', // the model catalogue
  'GET /api/tasks/{id}/shares', // organization references
  'GET /api/comms/threads/{id}/messages', // a message is never edited: an append-only log
  'GET /api/users/me/api-keys', // a key is created and revoked, never edited
  'GET /api/strategic-goals/{id}/kpis/{kpiId}/checkins', // never edited: a second one that date replaces it
  'GET /api/briefs', // a brief is written once by the server; no client edits it
  'GET /api/briefs/{id}',
]);

apiSuite('every record read by id and every list row carries updated_at', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('the OpenAPI 200 schema of each GET that returns records has updated_at', async () => {
    const doc = (await t.req({ method: 'GET', url: '/api/openapi.json' })).json();
    const missing: string[] = [];
    for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, unknown>>)) {
      const get = item.get as {
        responses?: Record<string, { content?: Record<string, { schema: Schema }> }>;
      };
      const schema = get?.responses?.['200']?.content?.['application/json']?.schema;
      if (!schema) continue;
      const op = `GET ${path.replace(/\/$/, '')}`;
      if (NOT_RECORDS.has(op)) continue;
      const row = schema.type === 'array' ? schema.items : schema;
      if (row?.properties?.id && !row.properties.updated_at) missing.push(op);
    }
    expect(missing).toEqual([]);
  });
});
