import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { providerFetch } from './provider-fetch.ts';

/** A loopback server whose routes the tests script; it records what it received. */
describe('providerFetch', () => {
  let server: http.Server;
  let base: string;
  const seen: { method?: string; url?: string; headers: http.IncomingHttpHeaders; body: string }[] = [];
  const connections = new Set<unknown>();
  let lastClosed: Promise<void> = Promise.resolve();

  beforeAll(async () => {
    server = http.createServer(async (req, res) => {
      let body = '';
      for await (const c of req) body += c;
      seen.push({ method: req.method, url: req.url, headers: req.headers, body });
      if (req.url === '/json') {
        res.writeHead(201, { 'content-type': 'application/json', 'x-extra': 'yes' });
        res.end(JSON.stringify({ echo: body }));
      } else if (req.url === '/stream') {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write('data: one\n\n');
        lastClosed = new Promise((r) => res.on('close', () => r()));
        // The rest comes only when the client asks for it (see the test).
      } else if (req.url === '/gzip') {
        res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' });
        res.end(zlib.gzipSync('compressed hello'));
      } else if (req.url === '/moved') {
        res.writeHead(307, { location: '/json' });
        res.end();
      } else if (req.url === '/empty') {
        res.writeHead(204);
        res.end();
      } else {
        res.writeHead(404);
        res.end('nope');
      }
    });
    server.on('connection', (s) => connections.add(s));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  it('sends the method, headers and body and returns a standard Response', async () => {
    const res = await providerFetch(`${base}/json`, {
      method: 'POST',
      headers: { authorization: 'Bearer k', 'content-type': 'application/json' },
      body: '{"a":"é"}',
    });
    expect(res.status).toBe(201);
    expect(res.headers.get('x-extra')).toBe('yes');
    expect(await res.json()).toEqual({ echo: '{"a":"é"}' });
    const got = seen.at(-1);
    expect(got?.method).toBe('POST');
    expect(got?.headers.authorization).toBe('Bearer k');
    expect(got?.headers['content-length']).toBe(String(Buffer.byteLength('{"a":"é"}')));
  });

  it('reuses one connection for calls one after another (keep-alive)', async () => {
    const before = connections.size;
    for (let i = 0; i < 3; i++)
      await (await providerFetch(`${base}/json`, { method: 'POST', body: 'x' })).text();
    expect(connections.size - before).toBeLessThanOrEqual(1);
  });

  it('streams the body as it arrives, and an abort ends the upstream request', async () => {
    const controller = new AbortController();
    const res = await providerFetch(`${base}/stream`, {
      method: 'POST',
      body: '{}',
      signal: controller.signal,
    });
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toBe('data: one\n\n');
    controller.abort();
    await expect(reader.read()).rejects.toMatchObject({ name: 'AbortError' });
    await lastClosed;
  });

  it('decodes a compressed reply', async () => {
    const res = await providerFetch(`${base}/gzip`);
    expect(res.headers.get('content-encoding')).toBeNull();
    expect(await res.text()).toBe('compressed hello');
  });

  it('follows a redirect as fetch does', async () => {
    const res = await providerFetch(`${base}/moved`, { method: 'POST', body: 'again' });
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ echo: 'again' });
  });

  it('gives a null body for 204', async () => {
    const res = await providerFetch(`${base}/empty`);
    expect(res.status).toBe(204);
    expect(res.body).toBeNull();
  });

  it('reports a refused connection as fetch does (the SDK retries it), and an aborted signal at once', async () => {
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    await expect(providerFetch(`http://127.0.0.1:${port}/x`)).rejects.toMatchObject({
      name: 'TypeError',
      message: 'fetch failed',
    });
    const controller = new AbortController();
    controller.abort();
    await expect(providerFetch(`${base}/json`, { signal: controller.signal })).rejects.toMatchObject({
      name: 'AbortError',
    });
  });
});
