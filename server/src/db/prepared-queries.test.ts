import type { Compilable, CompiledQuery } from 'kysely';
import { isDeepStrictEqual } from 'node:util';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { apiSuite, createTestApp, type TestApp, type TestUser } from '../../test/helpers.ts';
import { type MockOpenAI, startMockOpenAI } from '../../test/mock-openai.ts';
import type { Db } from './index.ts';

/**
 * Every prepared query the app runs in this file's traffic (lists with their filters, writes, a chat
 * turn), checked against the plain Kysely query built anew with the real values: the statement sent
 * has the same SQL and values, and a read returns the same rows. The production preparedQuery runs
 * unchanged; only this file wraps it to compare (vi.mock), so a shape that does not determine the SQL
 * (prepared-query.ts) shows here as a difference.
 */

type Build = (db: Db, p: Record<string, unknown>) => Compilable<unknown>;

const seen = vi.hoisted(() => ({
  /** Each prepared query's build function, by the number of runs checked. */
  runs: new Map<unknown, number>(),
  /** Every preparedQuery created (module level: the app's queries). */
  created: new Set<unknown>(),
  differences: [] as string[],
}));

vi.mock('./prepared-query.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('./prepared-query.ts')>();
  const compared: typeof real.preparedQuery = (build, opts) => {
    const prepared = real.preparedQuery(build, opts);
    seen.created.add(build);
    return async (db, p) => {
      // The statement the prepared query sends, caught on its way to the database.
      const sent: CompiledQuery[] = [];
      const watched = new Proxy(db, {
        get(target, prop) {
          if (prop === 'executeQuery') {
            return (q: CompiledQuery) => {
              sent.push(q);
              return target.executeQuery(q);
            };
          }
          const v = Reflect.get(target, prop, target);
          return typeof v === 'function' ? v.bind(target) : v;
        },
      });
      const rows = await prepared(watched, p);
      const plain = (build as Build)(db, p).compile();
      const name = `${plain.sql.slice(0, 80)}…`;
      seen.runs.set(build, (seen.runs.get(build) ?? 0) + 1);
      if (sent.length !== 1) seen.differences.push(`${name}: sent ${sent.length} statements`);
      else if (
        sent[0].sql !== plain.sql ||
        !isDeepStrictEqual([...sent[0].parameters], [...plain.parameters])
      ) {
        seen.differences.push(
          `${name}: prepared\n${sent[0].sql}\n${sent[0].parameters}\nplain\n${plain.sql}`,
        );
      } else if (plain.query.kind === 'SelectQueryNode') {
        const again = await db.executeQuery(plain);
        if (!isDeepStrictEqual(again.rows, rows))
          seen.differences.push(`${name}: other rows than the plain query`);
      }
      return rows;
    };
  };
  return { ...real, preparedQuery: compared };
});

apiSuite('prepared queries against their plain Kysely queries', () => {
  let t: TestApp;
  let mock: MockOpenAI;
  let ceo: TestUser;
  let member: TestUser;
  let org: string;

  beforeAll(async () => {
    mock = await startMockOpenAI({ models: ['gpt-5-chat'] });
    t = await createTestApp({
      OPENAI_BASE_URL: mock.url,
      OPENAI_API_KEY: 'test-key',
      AI_MAX_RETRIES: '0',
      // Every read on the connection the statements are watched on.
      SQLITE_READ_WORKER: 'false',
    });
    ceo = await t.createUser('ceo', { first_name: 'Olivia' });
    member = await t.createUser('user', { first_name: 'Max' });
    org = await t.createOrg(ceo, 'Prepared Co');
    await t.addToOrg(ceo, org, member, 'manager');
  });
  afterAll(async () => {
    t.app.server.closeAllConnections();
    await t.close();
    await mock.close();
  });

  const call = async (u: TestUser, method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, body?: unknown) => {
    const res = await t.req({ method, url, token: u.token, body });
    expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
    return res;
  };

  it('send the SQL and values of a fresh build and read the same rows, for the shapes in use', async () => {
    const task = (
      await call(ceo, 'POST', '/api/tasks/', { title: 'Board deck', shared_org_ids: [org] })
    ).json();
    await call(member, 'POST', '/api/tasks/', {
      title: 'Own',
      priority: 'High',
      assigned_to_user_id: member.id,
    });
    await call(ceo, 'PUT', `/api/tasks/${task.id}`, { status: 'Done' });
    await call(ceo, 'POST', '/api/contacts/', {
      name: 'Max Member',
      emails: [member.email],
      organization_id: org,
    });
    await call(member, 'POST', '/api/contacts/', { name: 'Bo' });
    await call(ceo, 'POST', '/api/strategic-goals/', {
      title: 'Grow revenue',
      due_date: '2027-06-30',
      organization_id: org,
      kpis: [{ name: 'ARR', current_value: 1, target_value: 2 }],
    });
    await call(ceo, 'POST', '/api/journals/', { content: 'A first note' });
    const conversation = (await call(member, 'POST', '/api/conversations/', { name: 'Plan' })).json().id;
    await call(member, 'PUT', `/api/conversations/${conversation}`, { name: 'Q3 plan' });
    mock.script({
      kind: 'text',
      chunks: ['Hi', ' there'],
      usage: { prompt_tokens: 10, completion_tokens: 5 },
    });
    await call(member, 'POST', `/api/conversations/${conversation}/chat`, { message_text: 'Hello' });

    const lists = [
      '/api/tasks/',
      '/api/tasks/?include_completed=true&skip=1&limit=2',
      '/api/tasks/?status=Done&priority=High&search=deck&include_completed=true',
      `/api/tasks/?assignedTo=${member.id}`,
      '/api/tasks/urgent',
      '/api/contacts/',
      '/api/contacts/?search=max&skip=0&limit=5',
      '/api/strategic-goals/',
      `/api/strategic-goals/?organization_id=${org}&sort_by=status&include_completed=true`,
      '/api/journals/',
      '/api/journals/?search=first',
      '/api/conversations/',
      `/api/conversations/${conversation}/messages`,
      '/api/users/me',
    ];
    for (const u of [ceo, member]) {
      for (const url of lists) {
        // The conversation is the member's own: to anyone else it does not exist.
        if (u === ceo && url.includes(conversation)) continue;
        await call(u, 'GET', url);
      }
    }

    expect(seen.differences).toEqual([]);
    // Every prepared query of the app ran but the reservation's renewal (only a turn that outlives its
    // lease renews it; usage-reservations tests cover it).
    expect(seen.runs.size).toBeGreaterThanOrEqual(seen.created.size - 1);
  });
});
