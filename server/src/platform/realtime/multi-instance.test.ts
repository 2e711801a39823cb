import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabaseUrl, TEST_DB } from '../../../test/helpers.ts';
import { startServerProcess, type ServerProcess } from '../../../test/server-process.ts';
import { connectSse } from '../../../test/sse.ts';

// Several server instances on one PostgreSQL database (docs/operations.md): an event written through
// one instance must reach a stream held by another, via LISTEN/NOTIFY. SQLite is single-instance by
// design, so this suite runs in the server-postgres project only.
const pgReady = TEST_DB === 'postgres' && !!process.env.TEST_PG_URL;

describe.runIf(pgReady)('two server instances on one PostgreSQL database', () => {
  let a: ServerProcess;
  let b: ServerProcess;
  let drop: () => Promise<void>;
  const admin = { email: 'admin@multi.example', password: 'admin-password-1' };

  const call = async (base: string, method: string, path: string, token?: string, body?: unknown) => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return text ? JSON.parse(text) : null;
  };
  const signIn = async (base: string, email: string, password: string) => {
    const res = await fetch(`${base}/api/auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ username: email, password }).toString(),
    });
    return ((await res.json()) as { access_token: string }).access_token;
  };

  beforeAll(async () => {
    const db = await freshDatabaseUrl();
    drop = db.drop;
    const env = { DATABASE_URL: db.url, ADMIN_EMAIL: admin.email, ADMIN_PASSWORD: admin.password };
    a = await startServerProcess(env);
    b = await startServerProcess(env);
  }, 90_000);

  afterAll(async () => {
    await a?.stop();
    await b?.stop();
    await drop?.();
  }, 30_000);

  it('a comms message posted through one instance reaches a stream on the other within 1 s, exactly once, and a reconnect with Last-Event-ID loses nothing', async () => {
    const adminToken = await signIn(a.url, admin.email, admin.password);
    const member = { email: 'member@multi.example', password: 'member-password-1' };
    const created = await call(a.url, 'POST', '/api/users/', adminToken, {
      ...member,
      user_level: 'user',
      first_name: 'Mia',
    });
    const org = await call(a.url, 'POST', '/api/organizations', adminToken, { name: 'Multi Org' });
    const invite = await call(a.url, 'POST', `/api/organizations/${org.id}/users`, adminToken, {
      email: member.email,
      org_access_level: 'user',
    });
    const memberToken = await signIn(b.url, member.email, member.password);
    await call(b.url, 'POST', `/api/users/me/invitations/${invite.id}/accept`, memberToken);

    const thread = await call(a.url, 'POST', '/api/comms/threads', adminToken, {
      participant_ids: [created.id],
    });
    // The member follows the thread on instance B.
    const stream = await connectSse(`${b.url}/api/comms/threads/${thread.id}/events`, {
      headers: { authorization: `Bearer ${memberToken}` },
    });
    expect(stream.status).toBe(200);

    const sentAt = Date.now();
    const posted = await call(a.url, 'POST', `/api/comms/threads/${thread.id}/messages`, adminToken, {
      text: 'Hello from A',
    });
    const isPosted = (e: { data: unknown }) => (e.data as { id?: string }).id === posted.id;
    const upTo = await stream.collect(isPosted, 1000);
    expect(Date.now() - sentAt).toBeLessThan(1000);
    const first = upTo[upTo.length - 1];
    expect(first.data).toMatchObject({ id: posted.id, thread_id: thread.id, text: 'Hello from A' });
    // Exactly once: other events may follow (an AI reply suggestion), never this message again.
    const later: { data: unknown }[] = [];
    await stream
      .collect((e) => {
        later.push(e);
        return false;
      }, 1000)
      .catch(() => {}); // the window ending is the expected outcome
    expect(later.filter(isPosted)).toHaveLength(0);
    stream.close();

    // While the member is away, two more messages are written through A.
    await call(a.url, 'POST', `/api/comms/threads/${thread.id}/messages`, adminToken, { text: 'second' });
    await call(a.url, 'POST', `/api/comms/threads/${thread.id}/messages`, adminToken, { text: 'third' });
    const resumed = await connectSse(`${b.url}/api/comms/threads/${thread.id}/events`, {
      headers: { authorization: `Bearer ${memberToken}` },
      lastEventId: first.id,
    });
    const caughtUp = await resumed.collect((e) => (e.data as { text?: string }).text === 'third', 3000);
    const texts = caughtUp.map((e) => (e.data as { text?: string }).text).filter((t) => t !== undefined);
    expect(texts.filter((t) => ['Hello from A', 'second', 'third'].includes(t as string))).toEqual([
      'second',
      'third',
    ]);
    resumed.close();
  }, 60_000);
  it("a cached page on one instance shows the other instance's write on the next request, and a sign-out ends the session on both", async () => {
    const token = await signIn(a.url, admin.email, admin.password);
    const task = await call(a.url, 'POST', '/api/tasks/', token, { title: 'Written on A' });
    const listOnB = async () => {
      const res = await fetch(`${b.url}/api/tasks/`, { headers: { authorization: `Bearer ${token}` } });
      const body = res.ok ? ((await res.json()) as { id: string; title: string }[]) : [];
      return { status: res.status, cache: res.headers.get('x-cache'), body };
    };
    await listOnB();
    const cached = await listOnB();
    expect(cached.cache).toBe('hit');
    expect(cached.body.find((x) => x.id === task.id)?.title).toBe('Written on A');

    await call(a.url, 'PUT', `/api/tasks/${task.id}`, token, { title: 'Renamed on A' });
    const fresh = await listOnB();
    expect(fresh.cache).toBe('miss');
    expect(fresh.body.find((x) => x.id === task.id)?.title).toBe('Renamed on A');

    // The session was cached on B too; signing out through A ends it there at once.
    await call(a.url, 'POST', '/api/auth/logout', token);
    expect((await listOnB()).status).toBe(401);
  }, 60_000);
});
