import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { apiSuite, createTestApp, type TestApp, type TestUser } from '../../test/helpers.ts';
import { connectSse } from '../../test/sse.ts';
import { commsIdle } from '../modules/comms/comms.messages.ts';

// What travels over the wire: precompressed static files and compressed JSON, chosen by the
// request's Accept-Encoding; identity when it asks for nothing; SSE streams never compressed.
apiSuite('response compression', () => {
  let t: TestApp;
  let web: string;
  let user: TestUser;
  const script = `console.log(${JSON.stringify('x'.repeat(4000))});\n`;
  const html = `<!doctype html><title>Command Centre</title><div id="root">${'<p>hi</p>'.repeat(200)}</div>`;
  const loginHtml = `<!doctype html><title>Command Centre</title><div id="root"><h1>Welcome back</h1>${'<p>form</p>'.repeat(100)}</div>`;

  beforeAll(async () => {
    web = mkdtempSync(path.join(tmpdir(), 'cc-web-'));
    mkdirSync(path.join(web, 'assets'));
    // As the web build leaves them: each file with its .br and .gz beside it.
    const put = (name: string, text: string) => {
      const file = path.join(web, name);
      writeFileSync(file, text);
      writeFileSync(`${file}.br`, zlib.brotliCompressSync(text));
      writeFileSync(`${file}.gz`, zlib.gzipSync(text));
    };
    put('index.html', html);
    mkdirSync(path.join(web, 'prerendered'));
    put('prerendered/index.html', loginHtml.replace('Welcome back', 'Landing'));
    put('prerendered/login.html', loginHtml);
    put('assets/app-abc123.js', script);
    writeFileSync(path.join(web, 'assets', 'plain-def456.js'), 'console.log(2)');
    t = await createTestApp({ WEB_DIST: web });
    user = await t.createUser('user');
    for (let i = 0; i < 12; i++) {
      const res = await t.req({
        method: 'POST',
        url: '/api/tasks',
        token: user.token,
        body: { title: `Prepare the quarterly board pack, part ${i}`, description: 'd'.repeat(80) },
      });
      expect(res.statusCode, res.body).toBe(201);
    }
  });
  afterAll(async () => {
    await t?.close();
    rmSync(web, { recursive: true, force: true });
  });

  const get = (url: string, encoding?: string, token?: string) =>
    t.app.inject({
      method: 'GET',
      url,
      headers: {
        ...(encoding !== undefined ? { 'accept-encoding': encoding } : {}),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
    });

  it('sends the brotli file of a static asset to a browser that accepts it', async () => {
    const res = await get('/assets/app-abc123.js', 'gzip, deflate, br');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.rawPayload.length).toBeLessThan(script.length / 10);
    expect(zlib.brotliDecompressSync(res.rawPayload).toString()).toBe(script);
  });

  it('sends the gzip file when only gzip is accepted', async () => {
    const res = await get('/assets/app-abc123.js', 'gzip');
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(zlib.gunzipSync(res.rawPayload).toString()).toBe(script);
  });

  it('sends the file as it is without Accept-Encoding; one with no compressed copy is compressed as it goes', async () => {
    const plain = await get('/assets/app-abc123.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toMatch(/accept-encoding/i);
    expect(plain.body).toBe(script);
    const other = await get('/assets/plain-def456.js', 'gzip');
    expect(other.statusCode).toBe(200);
    expect(other.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(other.rawPayload).toString()).toBe('console.log(2)');
    expect((await get('/assets/plain-def456.js')).body).toBe('console.log(2)');
  });

  it('does not decompress request bodies: a gzip-encoded JSON body is refused, nothing written', async () => {
    const before = (await get('/api/tasks', undefined, user.token)).json();
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/tasks',
      headers: {
        authorization: `Bearer ${user.token}`,
        'content-type': 'application/json',
        'content-encoding': 'gzip',
      },
      payload: zlib.gzipSync(JSON.stringify({ title: 'Compressed body' })),
    });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
    expect(res.json().detail).toEqual(expect.any(String));
    const after = (await get('/api/tasks', undefined, user.token)).json();
    expect(after).toEqual(before);
  });

  it('sends the app page (the client-side route fallback) compressed too', async () => {
    const res = await get('/app/tasks', 'br');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(zlib.brotliDecompressSync(res.rawPayload).toString()).toBe(html);
  });

  it('sends the prerendered HTML of a public page (compressed), and the bare app page elsewhere', async () => {
    const login = await get('/login', 'br');
    expect(login.statusCode).toBe(200);
    expect(login.headers['content-encoding']).toBe('br');
    expect(login.headers['cache-control']).toBe('no-cache');
    expect(zlib.brotliDecompressSync(login.rawPayload).toString()).toBe(loginHtml);
    expect((await get('/login/?next=1')).body).toBe(loginHtml);
    expect((await get('/')).body).toContain('Landing');
    // No prerendered file for /signup in this build: the app page, as for every other route.
    expect((await get('/signup')).body).toBe(html);
    expect((await get('/app/login')).body).toBe(html);
  });

  it('compresses a JSON page above 1 KB with the encoding asked for, identity otherwise', async () => {
    const plain = await get('/api/tasks', undefined, user.token);
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(1024);
    const expected = plain.json();
    expect(expected.length ?? expected.items?.length).toBeGreaterThan(0);

    const br = await get('/api/tasks', 'gzip, br', user.token);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.headers['content-type']).toMatch(/^application\/json/);
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
    expect(JSON.parse(zlib.brotliDecompressSync(br.rawPayload).toString())).toEqual(expected);

    const gz = await get('/api/tasks', 'gzip', user.token);
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(zlib.gunzipSync(gz.rawPayload).toString())).toEqual(expected);

    // br refused explicitly: gzip; nothing acceptable: identity.
    expect((await get('/api/tasks', 'br;q=0, gzip', user.token)).headers['content-encoding']).toBe('gzip');
    const identity = await get('/api/tasks', 'identity', user.token);
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(identity.json()).toEqual(expected);
  });

  it('leaves a small JSON body as it is', async () => {
    const res = await get('/healthz', 'gzip, br');
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.json()).toEqual({ status: 'ok' });
  });

  it('never compresses an SSE stream', async () => {
    const ceo = await t.createUser('ceo');
    const other = await t.createUser('user');
    await t.addToOrg(ceo, await t.createOrg(ceo), other);
    const open = await t.req({
      method: 'POST',
      url: '/api/comms/threads',
      token: ceo.token,
      body: { participant_ids: [other.id] },
    });
    expect(open.statusCode, open.body).toBe(201);
    const base = await t.listen();
    const stream = await connectSse(
      `${base}/api/comms/threads/${open.json().id}/events?token=${other.token}`,
      {
        headers: { 'accept-encoding': 'gzip, deflate, br' },
      },
    );
    try {
      expect(stream.status).toBe(200);
      expect(stream.headers['content-type']).toMatch(/text\/event-stream/);
      expect(stream.headers['content-encoding']).toBeUndefined();
      const text = `A long update: ${'numbers '.repeat(300)}`;
      const sent = await t.req({
        method: 'POST',
        url: `/api/comms/threads/${open.json().id}/messages`,
        token: ceo.token,
        body: { text },
      });
      expect(sent.statusCode, sent.body).toBe(201);
      expect((await stream.next(3000)).data).toMatchObject({ text });
    } finally {
      stream.close();
      await commsIdle(t.ctx);
    }
  });
});
