import http from 'node:http';
import { afterEach, expect, it } from 'vitest';
import { apiSuite, createTestApp, type TestApp, type TestUser } from '../../test/helpers.ts';

/** One request on a brand-new connection (no keep-alive pool): what a client arriving now gets. */
function freshRequest(base: string, path: string) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>(
    (resolve, reject) => {
      const req = http.request(`${base}${path}`, { agent: false }, (res) => {
        let body = '';
        res.on('data', (c) => {
          body += c;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      });
      req.on('error', reject);
      req.end();
    },
  );
}

apiSuite('SIGTERM drain', () => {
  let t: TestApp;
  let u: TestUser;
  let base: string;
  afterEach(() => t.close());

  /** An app whose offline replies take a while to write (20 ms a word), with a chat POST in flight. */
  async function startReply() {
    t = await createTestApp({ AI_OFFLINE_TOKEN_DELAY_MS: '20' });
    u = await t.createUser('user');
    base = await t.listen();
    const id = (await t.req({ method: 'POST', url: '/api/conversations/', token: u.token, body: {} })).json()
      .id as string;
    const reply = fetch(`${base}/api/conversations/${id}/chat`, {
      method: 'POST',
      headers: { authorization: `Bearer ${u.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ message_text: 'Summarise my week in a few sentences, please.' }),
    }).then(async (r) => ({ status: r.status, body: await r.json() }));
    // The reply has begun streaming (its row exists) before the drain starts.
    for (let i = 0; i < 100; i++) {
      const res = await t.req({ method: 'GET', url: `/api/conversations/${id}/messages`, token: u.token });
      if (res.json().items.some((m: { status: string }) => m.status === 'streaming')) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    // Wrapped: an async function returning the bare promise would wait for the reply itself.
    return { reply };
  }

  it('answers new connections 503 with Retry-After while a reply in flight finishes within the grace period', async () => {
    const { reply } = await startReply();
    const draining = t.drain(20_000);
    // The server still listens: a new client is told to retry, never refused.
    const refused = await freshRequest(base, '/api/users/me');
    expect(refused.status).toBe(503);
    expect(refused.headers['retry-after']).toBe('5');
    expect(refused.headers.connection).toBe('close');
    expect(JSON.parse(refused.body)).toEqual({ detail: 'The server is restarting. Please retry.' });
    expect((await freshRequest(base, '/readyz')).status).toBe(503);
    // Liveness: the process is alive and draining on purpose, so a supervisor must not restart it.
    const live = await freshRequest(base, '/healthz');
    expect(live.status).toBe(200);
    expect(JSON.parse(live.body)).toEqual({ status: 'ok' });
    const done = await reply;
    expect(done.status).toBe(200);
    expect(done.body.status).toBe('complete');
    expect(done.body.content.split(/\s+/).length).toBeGreaterThan(10);
    await draining;
    // Drained: the server no longer listens.
    await expect(freshRequest(base, '/healthz')).rejects.toThrow(/ECONNREFUSED/);
  });

  it('stops only the replies still running when the grace period ends', async () => {
    const { reply } = await startReply();
    const started = Date.now();
    await t.drain(100);
    const done = await reply;
    expect(done.status).toBe(200);
    expect(done.body.status).toBe('stopped');
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});
