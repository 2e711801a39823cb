import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Allowlist, isBlockedAddress } from './ip-policy.ts';
import { FetchLimitError, type Resolver, safeFetch, UnsafeUrlError } from './safe-fetch.ts';

describe('address policy', () => {
  it.each([
    '127.0.0.1',
    '127.8.9.10',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '100.64.0.1',
    '169.254.169.254',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    '[::1]',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:8.8.8.8',
    '::127.0.0.1',
    '64:ff9b::a9fe:a9fe',
    'fd00:ec2::254',
    'fc00::1',
    'fe80::1%eth0',
    'ff02::1',
    'not-an-ip',
  ])('refuses %s', (ip) => {
    expect(isBlockedAddress(ip)).toBe(true);
  });

  it.each(['8.8.8.8', '1.1.1.1', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111'])('allows %s', (ip) => {
    expect(isBlockedAddress(ip)).toBe(false);
  });

  it('allow-lists host names, wildcards, addresses and CIDR ranges', () => {
    const a = new Allowlist(['intranet.example', '*.corp.example', '10.0.0.5', '192.168.0.0/16', 'fd00::/8']);
    expect(a.allowsHost('intranet.example')).toBe(true);
    expect(a.allowsHost('wiki.corp.example')).toBe(true);
    expect(a.allowsHost('corp.example.evil.test')).toBe(false);
    expect(a.allowsAddress('10.0.0.5')).toBe(true);
    expect(a.allowsAddress('10.0.0.6')).toBe(false);
    expect(a.allowsAddress('192.168.44.1')).toBe(true);
    expect(a.allowsAddress('fd12::1')).toBe(true);
  });
});

describe('safeFetch', () => {
  let server: http.Server;
  let port: number;
  const seen: { url?: string; headers: http.IncomingHttpHeaders }[] = [];
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      seen.push({ url: req.url, headers: req.headers });
      if (req.url === '/ok') return res.end('hello');
      if (req.url === '/json') return res.end('{"a":1}');
      if (req.url === '/to-ok') return res.writeHead(302, { location: '/ok' }).end();
      if (req.url === '/to-metadata')
        return res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
      if (req.url === '/to-ipv6-loopback')
        return res.writeHead(301, { location: `http://[::1]:${port}/ok` }).end();
      if (req.url === '/to-other-origin')
        return res.writeHead(302, { location: `http://other.test:${port}/ok` }).end();
      if (req.url === '/to-other-origin-307')
        return res.writeHead(307, { location: `http://other.test:${port}/ok` }).end();
      if (req.url === '/to-same-origin-307') return res.writeHead(307, { location: '/ok' }).end();
      if (req.url === '/loop') return res.writeHead(302, { location: '/loop' }).end();
      if (req.url === '/big') {
        res.write(Buffer.alloc(64 * 1024, 'a'));
        return res.end(Buffer.alloc(64 * 1024, 'b'));
      }
      if (req.url === '/slow') return; // never answers
      res.writeHead(404).end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  });

  const local = (path: string) => `http://127.0.0.1:${port}${path}`;
  const allow = ['127.0.0.1'];

  it('refuses loopback unless allow-listed', async () => {
    await expect(safeFetch(local('/ok'))).rejects.toBeInstanceOf(UnsafeUrlError);
    const res = await safeFetch(local('/ok'), { allowlist: allow });
    expect(res.status).toBe(200);
    expect(res.text()).toBe('hello');
    expect((await safeFetch(local('/json'), { allowlist: ['127.0.0.0/8'] })).json()).toEqual({ a: 1 });
  });

  it('refuses other schemes and invalid URLs', async () => {
    await expect(safeFetch('file:///etc/passwd')).rejects.toThrow(/Only http and https/);
    await expect(safeFetch('gopher://example.com/')).rejects.toBeInstanceOf(UnsafeUrlError);
    await expect(safeFetch('not a url')).rejects.toBeInstanceOf(UnsafeUrlError);
  });

  it('refuses a name that resolves to a private address, even among public ones', async () => {
    const resolver: Resolver = async (host) =>
      host === 'mixed.test'
        ? [
            { address: '93.184.216.34', family: 4 },
            { address: '10.0.0.1', family: 4 },
          ]
        : [{ address: '::ffff:169.254.169.254', family: 6 }];
    await expect(safeFetch('http://mixed.test/', { resolver })).rejects.toThrow(/10\.0\.0\.1 is a private/);
    await expect(safeFetch('http://mapped.test/', { resolver })).rejects.toBeInstanceOf(UnsafeUrlError);
  });

  it('connects to the address it checked (pinned), not to a fresh DNS answer', async () => {
    // 'pinned.test' does not exist in DNS: the request can only reach the server through the pin.
    const resolver: Resolver = async () => [{ address: '127.0.0.1', family: 4 }];
    const res = await safeFetch(`http://pinned.test:${port}/ok`, { resolver, allowlist: allow });
    expect(res.text()).toBe('hello');
    expect(seen.at(-1)?.headers.host).toBe(`pinned.test:${port}`);
  });

  it('re-checks every redirect', async () => {
    const ok = await safeFetch(local('/to-ok'), { allowlist: allow });
    expect(ok.url).toBe(local('/ok'));
    expect(ok.text()).toBe('hello');
    await expect(safeFetch(local('/to-metadata'), { allowlist: allow })).rejects.toThrow(
      /169\.254\.169\.254/,
    );
    await expect(safeFetch(local('/to-ipv6-loopback'), { allowlist: allow })).rejects.toBeInstanceOf(
      UnsafeUrlError,
    );
    await expect(safeFetch(local('/loop'), { allowlist: allow, maxRedirects: 3 })).rejects.toBeInstanceOf(
      FetchLimitError,
    );
  });

  it('drops every caller-set header but content-type and accept on a redirect to another origin', async () => {
    const resolver: Resolver = async () => [{ address: '127.0.0.1', family: 4 }];
    await safeFetch(local('/to-other-origin'), {
      allowlist: allow,
      resolver,
      headers: {
        authorization: 'Bearer secret',
        'x-api-token-2': 'also-secret',
        accept: 'application/json',
        'content-type': 'text/plain',
      },
    });
    const last = seen.at(-1);
    expect(last?.headers.host).toBe(`other.test:${port}`);
    expect(last?.headers.authorization).toBeUndefined();
    expect(last?.headers['x-api-token-2']).toBeUndefined();
    expect(last?.headers.accept).toBe('application/json');
    expect(last?.headers['content-type']).toBe('text/plain');
  });

  it('refuses a cross-origin redirect of a call that carries configured headers (307 included)', async () => {
    const resolver: Resolver = async () => [{ address: '127.0.0.1', family: 4 }];
    for (const path of ['/to-other-origin', '/to-other-origin-307']) {
      const before = seen.length;
      await expect(
        safeFetch(local(path), {
          method: 'POST',
          body: '{"a":1}',
          allowlist: allow,
          resolver,
          configuredHeaders: true,
          headers: { 'x-vendor-key': 'sealed-value' },
        }),
      ).rejects.toThrow(
        /Refused to follow a redirect .* to http:\/\/other\.test:\d+: this call carries configured headers/,
      );
      // Only the first server was asked; the other origin never saw the request (nor the key).
      expect(seen.slice(before).map((r) => r.headers.host)).toEqual([`127.0.0.1:${port}`]);
    }
    // A redirect within the origin is still followed, with the headers.
    const same = await safeFetch(local('/to-same-origin-307'), {
      allowlist: allow,
      configuredHeaders: true,
      headers: { 'x-vendor-key': 'sealed-value' },
    });
    expect(same.text()).toBe('hello');
    expect(seen.at(-1)?.headers['x-vendor-key']).toBe('sealed-value');
  });

  it('caps the response size and the time', async () => {
    await expect(safeFetch(local('/big'), { allowlist: allow, maxBytes: 1000 })).rejects.toBeInstanceOf(
      FetchLimitError,
    );
    expect((await safeFetch(local('/big'), { allowlist: allow })).body.length).toBe(128 * 1024);
    const started = Date.now();
    await expect(safeFetch(local('/slow'), { allowlist: allow, timeoutMs: 200 })).rejects.toThrow(
      /longer than 200 ms/,
    );
    expect(Date.now() - started).toBeLessThan(2000);
  });
});
