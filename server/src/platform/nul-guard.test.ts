import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiSuite, createTestApp, type TestApp, type TestUser } from '../../test/helpers.ts';
import { nulAt } from './nul-guard.ts';

describe('nulAt: where the first NUL of parsed input is', () => {
  it('names the field, through arrays and nested objects, and keys holding one', () => {
    expect(nulAt({ title: 'fine', tags: ['a', 'b\u0000'] }, ['body'])).toEqual(['body', 'tags', 1]);
    expect(nulAt({ kpis: [{ name: 'x\u0000' }] }, ['body'])).toEqual(['body', 'kpis', 0, 'name']);
    expect(nulAt({ 'ke\u0000y': 1 }, ['body'])).toEqual(['body', 'ke\u0000y']);
    expect(nulAt('\u0000', ['params'])).toEqual(['params']);
    expect(nulAt({ a: 'x', b: [1, true, null, { c: 'y' }] }, ['body'])).toBeNull();
  });

  it('text that only spells \\u0000 (a backslash and five characters) is no NUL', () => {
    expect(nulAt({ note: 'escape with \\u0000 in JSON' }, ['body'])).toBeNull();
    expect(nulAt({ note: 'spelled \\u0000', real: ['x\u0000'] }, ['body'])).toEqual(['body', 'real', 0]);
  });

  // 50,000 levels overflow a recursive walk's stack. No clock is read: a loaded machine must not fail
  // a correct walk (how fast it is belongs to the bench).
  it('walks a deeply nested body without the stack', { timeout: 60_000 }, () => {
    let deep: unknown = 'end\u0000';
    for (let i = 0; i < 50_000; i++) deep = [deep];
    expect(nulAt(deep, ['body'])).toHaveLength(50_001);
  });
});

apiSuite('input a column cannot hold: 422 naming the field, on both engines alike', () => {
  let t: TestApp;
  let u: TestUser;
  let other: TestUser;
  beforeAll(async () => {
    t = await createTestApp();
    u = await t.createUser('ceo');
    other = await t.createUser('user');
    await t.addToOrg(u, await t.createOrg(u), other);
  });
  afterAll(() => t.close());

  const locOf = async (method: 'GET' | 'POST', url: string, body?: unknown) => {
    const res = await t.req({ method, url, token: u.token, body });
    expect(res.statusCode, res.body).toBe(422);
    return res.json().detail[0].loc;
  };

  it('a NUL in a body field, a query value or a path id', async () => {
    expect(await locOf('POST', '/api/tasks', { title: 'Call\u0000' })).toEqual(['body', 'title']);
    expect(await locOf('GET', '/api/tasks?search=a%00b')).toEqual(['querystring', 'search']);
    expect(await locOf('GET', '/api/tasks/%00')).toEqual(['params', 'id']);
    const tasks = await t.req({ method: 'GET', url: '/api/tasks', token: u.token });
    expect(tasks.json()).toEqual([]);
  });

  it('?before=2147483648 on comms messages, and skip beyond an integer', async () => {
    const thread = await t.req({
      method: 'POST',
      url: '/api/comms/threads',
      token: u.token,
      body: { participant_ids: [other.id] },
    });
    expect(thread.statusCode, thread.body).toBe(201);
    const url = `/api/comms/threads/${thread.json().id}/messages?before=2147483648`;
    expect(await locOf('GET', url)).toEqual(['querystring', 'before']);
    expect(await locOf('GET', '/api/tasks?skip=2147483648')).toEqual(['querystring', 'skip']);
    const atMax = await t.req({ method: 'GET', url: '/api/tasks?skip=2147483647', token: u.token });
    expect(atMax.statusCode, atMax.body).toBe(200);
  });
});
