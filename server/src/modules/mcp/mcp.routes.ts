import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { currentUser } from '../../platform/auth/authenticate.ts';
import type { AppContext } from '../../platform/context.ts';
import { unauthorized } from '../../platform/errors.ts';
import { registerWorkspaceTools } from './mcp.tools.ts';

export const MCP_PATH = '/mcp';
const SERVER_INFO = { name: 'command-centre', version: '1.0.0' };

/** The request as a web-standard Request (the SDK transport speaks those), its JSON body already parsed. */
function webRequest(req: FastifyRequest): Request {
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) {
    if (typeof v === 'string') headers.set(k, v);
    else if (Array.isArray(v)) headers.set(k, v.join(', '));
  }
  return new Request(`http://localhost${req.url}`, { method: req.method, headers });
}

/**
 * The workspace as an MCP server over Streamable HTTP, stateless: each POST builds a server bound to
 * the key's owner and answers with JSON, so the answer passes the same hooks (durability, logging) as
 * any other route. Only a personal API key opens it; its scopes choose the tools offered.
 */
export const mcpRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.route({
    method: ['POST', 'GET', 'DELETE'],
    url: MCP_PATH,
    config: { auth: 'active' },
    schema: { hide: true },
    handler: async (req, reply) => {
      const user = currentUser(req);
      if (!req.apiKey) throw unauthorized('Use a personal API key as the bearer token.');
      if (req.method !== 'POST') {
        return reply
          .code(405)
          .header('allow', 'POST')
          .send({ detail: 'This MCP server is stateless: send each request as a POST.' });
      }
      const server = new McpServer(SERVER_INFO, { capabilities: { tools: {} } });
      registerWorkspaceTools(server, ctx, user, req.apiKey);
      const transport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
      });
      try {
        await server.connect(transport);
        const res = await transport.handleRequest(webRequest(req), { parsedBody: req.body });
        reply.code(res.status);
        res.headers.forEach((value, name) => {
          reply.header(name, value);
        });
        const body = await res.text();
        return reply.send(body === '' ? null : body);
      } finally {
        await server.close();
      }
    },
  });
};
