import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { currentUser } from '../../platform/auth/authenticate.ts';
import type { AppContext } from '../../platform/context.ts';
import { unauthorized } from '../../platform/errors.ts';
import { limitMessages } from '../../platform/limits/limit-messages.ts';
import { enforceLimits } from '../../platform/limits/limits.ts';
import { registerWorkspaceTools } from './mcp.tools.ts';

export const MCP_PATH = '/mcp';
const SERVER_INFO = { name: 'command-centre', version: '1.0.0' };
/** Most JSON-RPC messages one POST may carry: a bigger batch is refused whole, before any runs. */
export const MCP_MAX_BATCH = 20;
/** JSON-RPC 2.0 "Invalid Request". */
const INVALID_REQUEST = -32600;

/** A JSON-RPC error answer (the shape the SDK transport gives its own refusals), with HTTP 400. */
function invalidRequest(reply: FastifyReply, message: string) {
  return reply
    .code(400)
    .header('content-type', 'application/json')
    .send({ jsonrpc: '2.0', error: { code: INVALID_REQUEST, message }, id: null });
}

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
      // A batch is checked before anything of it runs: empty and oversized batches are refused whole.
      const elements = Array.isArray(req.body) ? req.body.length : 1;
      if (elements === 0) return invalidRequest(reply, 'Invalid Request: an empty batch.');
      if (elements > MCP_MAX_BATCH) {
        return invalidRequest(
          reply,
          `Invalid Request: a batch may hold at most ${MCP_MAX_BATCH} messages (this one has ${elements}).`,
        );
      }
      const { mcpCallsPerKey, mcpCallsPerUser } = ctx.limits;
      enforceLimits(
        reply,
        [
          {
            limiter: mcpCallsPerKey,
            key: `key:${req.apiKey.id}`,
            what: limitMessages.mcpCallsPerKey(mcpCallsPerKey.max),
          },
          {
            limiter: mcpCallsPerUser,
            key: `user:${user.id}`,
            what: limitMessages.mcpCallsPerUser(mcpCallsPerUser.max),
          },
        ],
        elements,
      );
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
