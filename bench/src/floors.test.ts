import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from './config.ts';
import { freshDatabaseUrl, useEngine } from './engine.ts';
import { type FloorServer, startFloor } from './floors.ts';
import { type OwnServer, signInAll, startOwnServer } from './own-server.ts';
import { sameBodies } from './same-bodies.ts';
import { type Seeded, SIZES, seedWorkspace } from './scenarios/workspace-seed.ts';
import { FLOOR_LISTS } from './scenarios/workspace-floors.ts';

/**
 * The floors answer exactly what the product answers (issue 48 §1): every list page and
 * GET /api/users/me byte-identical for all 200 rotation users, and the write floor's task the same
 * JSON as the product's. A smaller workspace than the bench's (the same shape: 1,000 users, 200 of
 * them in rotation), so the test takes seconds. PostgreSQL runs where scripts/with-postgres.mjs gave
 * a cluster (TEST_PG_URL), e.g. `node scripts/with-postgres.mjs npx vitest run bench/src/floors.test.ts`.
 */
const SMALL = {
  ...SIZES,
  users: 1_000,
  tasks: 10_000,
  contacts: 2_000,
  notes: 5_000,
  goals: 500,
  inbox_items: 100,
};

const engines: Engine[] = process.env.TEST_PG_URL ? ['sqlite', 'postgres'] : ['sqlite'];

describe.each(engines)('floors on %s', (engine) => {
  let dir: string;
  let product: OwnServer;
  const floors: FloorServer[] = [];
  let seeded: Seeded;
  let tokens: string[];

  beforeAll(async () => {
    useEngine(engine, process.env.TEST_PG_URL ?? null);
    dir = mkdtempSync(path.join(tmpdir(), 'cc-floors-test-'));
    const databaseUrl = await freshDatabaseUrl(dir);
    const secret = randomBytes(48).toString('base64url');
    product = await startOwnServer({
      name: 'floors-test',
      databaseUrl,
      fromSource: true,
      withoutEnv: ['NODE_ENV'],
      env: { JWT_SECRET: secret, READ_CACHE_MB: '0' },
    });
    seeded = await seedWorkspace(databaseUrl, SMALL);
    for (const name of ['list-floor', 'auth-floor', 'write-floor'] as const)
      floors.push(await startFloor(name, { databaseUrl, secret }));
    tokens = await signInAll(product.baseURL, seeded.rotation);
  }, 240_000);

  afterAll(async () => {
    for (const f of floors) await f.stop();
    await product?.stop();
    useEngine('sqlite', null);
    rmSync(dir, { recursive: true, force: true });
  });

  const floor = (name: string) => floors.find((f) => f.name === name) as FloorServer;

  it('rotates through 200 distinct users, ceos among them', () => {
    expect(new Set(seeded.rotation).size).toBe(200);
  });

  it.each(FLOOR_LISTS.map((l) => [l.path]))(
    'list floor %s is byte-identical for all 200 users',
    async (p) => {
      const same = await sameBodies(product.baseURL, floor('list-floor').baseURL, p, tokens);
      expect(same.checked).toBe(200);
      expect(same.differences).toEqual([]);
    },
    60_000,
  );

  it('auth floor GET /api/users/me is byte-identical for all 200 users', async () => {
    const same = await sameBodies(product.baseURL, floor('auth-floor').baseURL, '/api/users/me', tokens);
    expect(same.differences).toEqual([]);
  }, 60_000);

  it('the floors refuse a request without a valid token (401 with a detail)', async () => {
    const routes = {
      'list-floor': ['GET', '/api/tasks/'],
      'auth-floor': ['GET', '/api/users/me'],
      'write-floor': ['POST', '/api/tasks/'],
    };
    for (const f of floors) {
      const [method, route] = routes[f.name as keyof typeof routes];
      const res = await fetch(f.baseURL + route, {
        method,
        headers: { authorization: 'Bearer not-a-token' },
      });
      expect(res.status).toBe(401);
      expect(((await res.json()) as { detail: string }).detail).toBeTruthy();
    }
  });

  it('write floor answers 201 with the product JSON of the same task, and stores the row', async () => {
    const post = async (base: string) => {
      const res = await fetch(`${base}/api/tasks/`, {
        method: 'POST',
        headers: { authorization: `Bearer ${tokens[1]}`, 'content-type': 'application/json' },
        body: JSON.stringify({ title: 'Floor write', priority: 'High', status: 'To Do', description: 'd' }),
      });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    const p = await post(product.baseURL);
    const f = await post(floor('write-floor').baseURL);
    expect([p.status, f.status]).toEqual([201, 201]);
    const fresh = ({ id: _i, created_at: _c, updated_at: _u, ...rest }: Record<string, unknown>) => rest;
    expect(Object.keys(f.body)).toEqual(Object.keys(p.body));
    expect(fresh(f.body)).toEqual(fresh(p.body));
    // The product reads the floor's row back as it would its own.
    const read = await fetch(`${product.baseURL}/api/tasks/${f.body.id}`, {
      headers: { authorization: `Bearer ${tokens[1]}` },
    });
    expect(read.status).toBe(200);
    expect(fresh((await read.json()) as Record<string, unknown>)).toEqual(fresh(p.body));
  });

  it('write floor refuses a task without a title (422 with a detail, nothing written)', async () => {
    const res = await fetch(`${floor('write-floor').baseURL}/api/tasks/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokens[1]}`, 'content-type': 'application/json' },
      body: JSON.stringify({ priority: 'High' }),
    });
    expect(res.status).toBe(422);
    expect(((await res.json()) as { detail: string }).detail).toMatch(/title/);
  });
});
