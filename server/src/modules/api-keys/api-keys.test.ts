import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiSuite, createTestApp, type TestApp, type TestUser } from '../../../test/helpers.ts';

apiSuite('personal API keys', () => {
  let t: TestApp;
  let admin: TestUser;
  let alice: TestUser;
  let bob: TestUser;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.createUser('admin');
    alice = await t.createUser('user');
    bob = await t.createUser('user');
  });
  afterAll(() => t.close());

  const makeKey = async (u: TestUser, scopes: string[], extra: Record<string, unknown> = {}) => {
    const res = await t.req({
      method: 'POST',
      url: '/api/users/me/api-keys',
      token: u.token,
      body: { name: 'CLI', scopes, ...extra },
    });
    expect(res.statusCode).toBe(201);
    return res.json() as { id: string; secret: string; prefix: string; scopes: string[] };
  };
  const newTask = (token: string, title = 'From the key') =>
    t.req({ method: 'POST', url: '/api/tasks/', token, body: { title } });

  it('returns the secret once, lists keys without it, and stores only a hash', async () => {
    const k = await makeKey(alice, ['read:tasks', 'write:tasks']);
    expect(k.secret.startsWith(k.prefix)).toBe(true);
    const list = await t.req({ method: 'GET', url: '/api/users/me/api-keys', token: alice.token });
    expect(list.statusCode).toBe(200);
    const listed = list.json() as Record<string, unknown>[];
    const mine = listed.find((x) => x.id === k.id);
    expect(mine).toMatchObject({ name: 'CLI', prefix: k.prefix, scopes: ['read:tasks', 'write:tasks'] });
    expect(JSON.stringify(listed)).not.toContain(k.secret.slice(k.prefix.length));
    const row = await t.ctx.db
      .selectFrom('api_keys')
      .selectAll()
      .where('id', '=', k.id)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(k.secret);
    // Another user never sees it.
    const bobs = await t.req({ method: 'GET', url: '/api/users/me/api-keys', token: bob.token });
    expect((bobs.json() as { id: string }[]).map((x) => x.id)).not.toContain(k.id);
  });

  it('acts as its owner within its scopes: read allowed, write without the scope refused', async () => {
    const mine = await newTask(alice.token, 'Alice private task');
    expect(mine.statusCode).toBe(201);
    const k = await makeKey(alice, ['read:tasks']);
    const list = await t.req({ method: 'GET', url: '/api/tasks/', token: k.secret });
    expect(list.statusCode).toBe(200);
    expect(JSON.stringify(list.json())).toContain('Alice private task');
    const write = await newTask(k.secret);
    expect(write.statusCode).toBe(403);
    expect(write.json().detail).toBe('This API key does not allow this call.');
    // A scope of another domain does not open this one.
    const notes = await t.req({ method: 'GET', url: '/api/journals/', token: k.secret });
    expect(notes.statusCode).toBe(403);
    const rw = await makeKey(alice, ['write:tasks']);
    const created = await newTask(rw.secret, 'Written with a key');
    expect(created.statusCode).toBe(201);
    expect(created.json().created_by).toBe(alice.id);
    // The owner's visibility holds: Bob's key does not see Alice's task.
    const bk = await makeKey(bob, ['read:tasks']);
    const bobList = await t.req({ method: 'GET', url: '/api/tasks/', token: bk.secret });
    expect(JSON.stringify(bobList.json())).not.toContain('Alice private task');
    const byId = await t.req({ method: 'GET', url: `/api/tasks/${mine.json().id}`, token: bk.secret });
    expect(byId.statusCode).toBe(404);
  });

  it('cannot manage keys, accounts or admin routes, whatever its scopes', async () => {
    const k = await makeKey(admin, ['read:tasks', 'write:tasks']);
    for (const [method, url] of [
      ['GET', '/api/users/me/api-keys'],
      ['POST', '/api/users/me/api-keys'],
      ['GET', '/api/users/'],
      ['PATCH', '/api/users/me'],
      ['POST', '/api/auth/stream-ticket'],
    ] as const) {
      const res = await t.req({ method, url, token: k.secret, body: method === 'GET' ? undefined : {} });
      expect(res.statusCode, `${method} ${url}`).toBe(403);
    }
    const me = await t.req({ method: 'GET', url: '/api/users/me', token: k.secret });
    expect(me.statusCode).toBe(200);
    expect(me.json().id).toBe(admin.id);
  });

  it('stops at once when revoked; only its owner revokes it', async () => {
    const k = await makeKey(alice, ['read:tasks']);
    expect((await t.req({ method: 'GET', url: '/api/tasks/', token: k.secret })).statusCode).toBe(200);
    const byBob = await t.req({ method: 'DELETE', url: `/api/users/me/api-keys/${k.id}`, token: bob.token });
    expect(byBob.statusCode).toBe(404);
    const del = await t.req({ method: 'DELETE', url: `/api/users/me/api-keys/${k.id}`, token: alice.token });
    expect(del.statusCode).toBe(204);
    const after = await t.req({ method: 'GET', url: '/api/tasks/', token: k.secret });
    expect(after.statusCode).toBe(401);
    expect(after.json().detail).toBe('This API key is not valid.');
    const again = await t.req({
      method: 'DELETE',
      url: `/api/users/me/api-keys/${k.id}`,
      token: alice.token,
    });
    expect(again.statusCode).toBe(404);
    const list = await t.req({ method: 'GET', url: '/api/users/me/api-keys', token: alice.token });
    expect((list.json() as { id: string }[]).map((x) => x.id)).not.toContain(k.id);
  });

  describe('the owner', () => {
    it('waitlisted: the key is refused; approved again: it works again', async () => {
      const carol = await t.createUser('user');
      const k = await makeKey(carol, ['read:tasks']);
      const demote = await t.req({
        method: 'PATCH',
        url: `/api/users/${carol.id}`,
        token: admin.token,
        body: { user_level: 'waitlisted' },
      });
      expect(demote.statusCode).toBe(200);
      expect((await t.req({ method: 'GET', url: '/api/tasks/', token: k.secret })).statusCode).toBe(401);
      expect((await t.req({ method: 'GET', url: '/api/users/me', token: k.secret })).statusCode).toBe(401);
      await t.req({
        method: 'PATCH',
        url: `/api/users/${carol.id}`,
        token: admin.token,
        body: { user_level: 'user' },
      });
      expect((await t.req({ method: 'GET', url: '/api/tasks/', token: k.secret })).statusCode).toBe(200);
    });

    it('deleted: the key is refused', async () => {
      const dave = await t.createUser('user');
      const k = await makeKey(dave, ['read:tasks']);
      const del = await t.req({ method: 'DELETE', url: `/api/users/${dave.id}`, token: admin.token });
      expect(del.statusCode).toBe(204);
      expect((await t.req({ method: 'GET', url: '/api/tasks/', token: k.secret })).statusCode).toBe(401);
    });
  });

  it('refuses an expired key, a tampered secret, and bad bodies', async () => {
    const k = await makeKey(alice, ['read:tasks'], {
      expires_at: new Date(Date.now() + 60_000).toISOString(),
    });
    await t.ctx.db
      .updateTable('api_keys')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', k.id)
      .execute();
    expect((await t.req({ method: 'GET', url: '/api/tasks/', token: k.secret })).statusCode).toBe(401);
    const good = await makeKey(alice, ['read:tasks']);
    const tampered = `${good.secret.slice(0, -2)}${good.secret.endsWith('A') ? 'BB' : 'AA'}`;
    expect((await t.req({ method: 'GET', url: '/api/tasks/', token: tampered })).statusCode).toBe(401);
    for (const body of [
      { name: '', scopes: ['read:tasks'] },
      { name: 'x', scopes: [] },
      { name: 'x', scopes: ['admin:everything'] },
      { name: 'x', scopes: ['read:tasks'], expires_at: '2001-01-01T00:00:00Z' },
    ]) {
      const res = await t.req({ method: 'POST', url: '/api/users/me/api-keys', token: alice.token, body });
      expect(res.statusCode, JSON.stringify(body)).toBe(422);
    }
  });

  it('records when a key was last used', async () => {
    const k = await makeKey(bob, ['read:tasks']);
    await t.req({ method: 'GET', url: '/api/tasks/', token: k.secret });
    const list = await t.req({ method: 'GET', url: '/api/users/me/api-keys', token: bob.token });
    const mine = (list.json() as { id: string; last_used_at: string | null }[]).find((x) => x.id === k.id);
    expect(mine?.last_used_at).toBeTruthy();
  });
});
