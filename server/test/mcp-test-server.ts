import http from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

/**
 * An MCP server for tests, on 127.0.0.1 (reachable only when the test allow-lists it), stateless:
 * each POST gets a fresh McpServer. `/read` offers one read-only tool, `/write` one that changes
 * things, `/both` both. It records the tool calls and the headers each request carried, and
 * (`requests`) which path got which request with which headers, `tool` set on tool calls.
 */
export async function startMcpTestServer() {
  const calls: { tool: string; args: Record<string, unknown> }[] = [];
  const headersSeen: http.IncomingHttpHeaders[] = [];
  const requests: { path: string; headers: http.IncomingHttpHeaders; tool?: string }[] = [];
  const calledAt = (path: string, tool: string) => {
    const last = requests.findLast((r) => r.path === path && r.tool === undefined);
    if (last) last.tool = tool;
  };

  function build(path: string): McpServer {
    const server = new McpServer({ name: 'test-mcp', version: '1.0.0' });
    if (path === '/read' || path === '/both') {
      server.registerTool(
        'lookup_quote',
        {
          description: 'Looks up the quote of the day',
          inputSchema: { topic: z.string().optional() },
          annotations: { readOnlyHint: true },
        },
        async (args) => {
          calls.push({ tool: 'lookup_quote', args });
          calledAt(path, 'lookup_quote');
          return { content: [{ type: 'text', text: 'mcp-answer-quote-of-the-day' }] };
        },
      );
    }
    if (path === '/write' || path === '/both') {
      server.registerTool(
        'create_ticket',
        { description: 'Opens a support ticket', inputSchema: { title: z.string().optional() } },
        async (args) => {
          calls.push({ tool: 'create_ticket', args });
          calledAt(path, 'create_ticket');
          return { content: [{ type: 'text', text: 'mcp-ticket-created-42' }] };
        },
      );
    }
    return server;
  }

  const httpServer = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    headersSeen.push(req.headers);
    requests.push({ path, headers: req.headers });
    if (req.method !== 'POST') {
      res.writeHead(405).end();
      return;
    }
    const server = build(path);
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    res.on('close', () => {
      transport.close().catch(() => {});
      server.close().catch(() => {});
    });
    server
      .connect(transport)
      .then(() => transport.handleRequest(req, res))
      .catch(() => {
        if (!res.headersSent) res.writeHead(500).end();
      });
  });
  await new Promise<void>((r) => httpServer.listen(0, '127.0.0.1', r));
  const port = (httpServer.address() as { port: number }).port;
  return {
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    calls,
    headersSeen,
    requests,
    close: () =>
      new Promise<void>((r) => {
        httpServer.closeAllConnections();
        httpServer.close(() => r());
      }),
  };
}
