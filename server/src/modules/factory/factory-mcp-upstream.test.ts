import http from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { apiSuite, createTestApp, type TestApp, type TestUser } from '../../../test/helpers.ts';
import { startMcpTestServer } from '../../../test/mcp-test-server.ts';

/**
 * Issue 46 row 6: an MCP server's sealed headers never follow a redirect to another origin, and what
 * another server answered (an error page, a reply that does not parse) never reaches a `detail`.
 */
const UPSTREAM_TEXT = 'upstream-body-7f3a';

/** A server that answers every path with a fixed reply, recording the requests it gets. */
async function startFixedServer(answer: (path: string, res: http.ServerResponse, port: number) => void) {
  const seen: { path: string; headers: http.IncomingHttpHeaders }[] = [];
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      seen.push({ path: req.url ?? '/', headers: req.headers });
      answer(req.url ?? '/', res, port);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  return {
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    seen,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

apiSuite('MCP servers: redirects and upstream bodies (issue 46 row 6)', () => {
  let t: TestApp;
  let ceo: TestUser;
  let mcp: Awaited<ReturnType<typeof startMcpTestServer>>;
  let odd: Awaited<ReturnType<typeof startFixedServer>>;
  beforeAll(async () => {
    // Both local servers are reachable only because the test allow-lists the loopback address.
    t = await createTestApp({ AI_HTTP_ALLOWLIST: '127.0.0.1' });
    ceo = await t.createUser('ceo');
    mcp = await startMcpTestServer();
    odd = await startFixedServer((path, res) => {
      // Another origin (another port): a redirect there must not carry the sealed headers.
      if (path === '/redirect') return res.writeHead(307, { location: mcp.url('/read') }).end();
      if (path === '/error-page')
        return res.writeHead(400, { 'content-type': 'text/plain' }).end(`parse error near ${UPSTREAM_TEXT}`);
      // JSON that is no JSON-RPC answer: the client's parse errors would quote it.
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id: 0, result: { protocolVersion: 7, [UPSTREAM_TEXT]: 1 } }));
    });
  });
  afterAll(async () => {
    await t.close();
    await mcp.close();
    await odd.close();
  });

  const save = (url: string, headers: Record<string, string>) =>
    t.req({
      method: 'POST',
      url: '/api/tools/',
      token: ceo.token,
      body: { name: `MCP ${url}`, kind: 'mcp', mcp: { url, headers } },
    });

  it('a server with sealed headers that redirects to another origin is refused; the other origin sees nothing', async () => {
    const before = mcp.headersSeen.length;
    const res = await save(odd.url('/redirect'), { 'X-Vendor-Key': 'sealed-vendor-value' });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().detail).toMatch(/Refused to follow a redirect .* this call carries configured headers/);
    expect(mcp.headersSeen.slice(before)).toEqual([]);
    expect(res.body).not.toContain('sealed-vendor-value');
  });

  it('without configured headers the redirect is followed (the server is the one it points to)', async () => {
    const res = await save(odd.url('/redirect'), {});
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().mcp.tools.map((x: { name: string }) => x.name)).toEqual(['lookup_quote']);
  });

  it.each(['/error-page', '/not-json-rpc'])(
    'the 422 for %s never echoes what the server answered',
    async (path) => {
      const res = await save(odd.url(path), {});
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json().detail).toMatch(/^The MCP server could not be reached or did not list its tools: /);
      expect(res.body).not.toContain(UPSTREAM_TEXT);
      expect(odd.seen.some((s) => s.path === path)).toBe(true);
    },
  );
});
