import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { apiSuite, createTestApp, TEST_DB, type TestApp, type TestUser } from '../../test/helpers.ts';
import type { TableClock } from '../db/table-clock.ts';

/**
 * Every `config.cache` route of the app, through real HTTP with real cache hits: a write to any table
 * the route reads makes its next answer a miss (so its `config.cache` list covers what it reads), and
 * after each kind of change the answer for a cached URL equals a fresh read of the same page.
 */

const MODULES = join(dirname(fileURLToPath(import.meta.url)), '../modules');

/** `config: { … cache: … }` in the routes files: how many cached routes the app declares. */
function cachedRoutesInSource(dir = MODULES): number {
  let n = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) n += cachedRoutesInSource(full);
    else if (entry.name.endsWith('.routes.ts')) {
      n += readFileSync(full, 'utf8').match(/config:\s*\{[^}]*\bcache:/g)?.length ?? 0;
    }
  }
  return n;
}

/** A table after FROM or JOIN; a set-returning function there (`from json_each(...)`) is not one. */
const TABLE_REF = /\b(?:from|join)\s+["`]?([A-Za-z_]\w*)\b["`]?(?!\s*\()/g;

apiSuite('cached routes', () => {
  let t: TestApp;
  let ceo: TestUser;
  let member: TestUser;
  let org: string;
  let conversation: string;
  let clock: TableClock;
  /** Unique query strings: a URL never read before is a miss, so its answer is a fresh read. */
  let fresh = 0;

  beforeAll(async () => {
    // List pages read on the main connection, where every statement is reported (onRead).
    t = await createTestApp({ SQLITE_READ_WORKER: 'false' });
    if (!t.ctx.changes) throw new Error('the test app tracks table changes');
    clock = t.ctx.changes;
    ceo = await t.createUser('ceo', { first_name: 'Olivia' });
    member = await t.createUser('user', { first_name: 'Max' });
    org = await t.createOrg(ceo, 'Cache Co');
    await t.addToOrg(ceo, org, member, 'manager');
    const post = async (url: string, body: unknown, u = ceo) => {
      const res = await t.req({ method: 'POST', url, token: u.token, body });
      expect(res.statusCode, res.body).toBeLessThan(300);
      return res.json() as { id: string };
    };
    await post('/api/tasks/', { title: 'Board deck', priority: 'High', shared_org_ids: [org] });
    await post('/api/contacts/', {
      name: 'Ada Partner',
      emails: ['ada@partner.example'],
      organization_id: org,
    });
    await post('/api/strategic-goals/', {
      title: 'Grow revenue',
      due_date: '2027-06-30',
      organization_id: org,
      kpis: [{ name: 'ARR', current_value: 1, target_value: 2 }],
    });
    await post('/api/journals/', { content: 'A first note' });
    conversation = (await post('/api/conversations/', { name: 'Planning' })).id;
  });
  afterAll(() => t.close());

  const urls = () => [
    '/api/tasks/',
    '/api/tasks/urgent',
    '/api/contacts/',
    '/api/strategic-goals/',
    '/api/journals/',
    '/api/conversations/',
    `/api/conversations/${conversation}/messages`,
    '/api/inbox/',
    '/api/inbox/count',
    '/api/organizations/',
    '/api/users/me',
    `/api/usage/summary?organization_id=${org}`,
  ];
  const withFresh = (url: string) => `${url}${url.includes('?') ? '&' : '?'}fresh=${++fresh}`;
  const get = async (url: string, u = ceo) => {
    const res = await t.req({ method: 'GET', url, token: u.token });
    expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
    return res;
  };

  it('covers every cached route the app declares', () => {
    expect(new Set(urls().map((u) => u.split('?')[0].replace(conversation, ':id'))).size).toBe(
      cachedRoutesInSource(),
    );
  });

  it('a write to any table a cached route read makes its next answer a miss', async () => {
    for (const base of urls()) {
      const url = withFresh(base);
      await get(base); // the session and memberships are cached: what follows reads the page only
      const read = new Set<string>();
      clock.onRead = (sql) => {
        for (const m of sql.matchAll(TABLE_REF)) read.add(m[1]);
      };
      try {
        expect((await get(url)).headers['x-cache'], url).toBe('miss');
      } finally {
        clock.onRead = null;
      }
      expect(read.size, `${url} read some table`).toBeGreaterThan(0);
      expect((await get(url)).headers['x-cache'], url).toBe('hit');
      for (const table of read) {
        if (TEST_DB === 'postgres') expect(clock.caches(table), `${table}'s writes are logged`).toBe(true);
        clock.changed([table]);
        expect((await get(url)).headers['x-cache'], `${url} after a write to ${table}`).toBe('miss');
        expect((await get(url)).headers['x-cache'], url).toBe('hit');
      }
    }
  });

  it('after each kind of change, every cached answer equals a fresh read', async () => {
    const changes: [string, () => Promise<unknown>][] = [
      [
        'a task',
        () => t.req({ method: 'POST', url: '/api/tasks/', token: member.token, body: { title: 'Mine' } }),
      ],
      [
        'a rename',
        () => t.req({ method: 'PATCH', url: '/api/users/me', token: ceo.token, body: { first_name: 'Liv' } }),
      ],
      [
        'a contact',
        () => t.req({ method: 'POST', url: '/api/contacts/', token: member.token, body: { name: 'Bo' } }),
      ],
      [
        'a journal',
        () => t.req({ method: 'POST', url: '/api/journals/', token: ceo.token, body: { content: 'Later' } }),
      ],
      [
        'a conversation renamed',
        () =>
          t.req({
            method: 'PUT',
            url: `/api/conversations/${conversation}`,
            token: ceo.token,
            body: { name: 'Q3' },
          }),
      ],
      [
        'a member leaving',
        () =>
          t.req({ method: 'DELETE', url: `/api/organizations/${org}/users/${member.id}`, token: ceo.token }),
      ],
    ];
    let hits = 0;
    const compareAll = async () => {
      for (const u of [ceo, member]) {
        for (const url of urls()) {
          const res = await t.req({ method: 'GET', url, token: u.token });
          if (res.headers['x-cache'] === 'hit') hits++;
          const again = await t.req({ method: 'GET', url: withFresh(url), token: u.token });
          expect(again.headers['x-cache']).toBe('miss');
          expect([res.statusCode, res.json()], `${url} for ${u.email}`).toEqual([
            again.statusCode,
            again.json(),
          ]);
        }
      }
    };
    await compareAll();
    await compareAll(); // every answer now comes from the cache
    for (const [what, change] of changes) {
      const res = (await change()) as { statusCode: number; body: string };
      expect(res.statusCode, `${what}: ${res.body}`).toBeLessThan(300);
      await compareAll();
    }
    expect(hits).toBeGreaterThan(urls().length);
  });
});
