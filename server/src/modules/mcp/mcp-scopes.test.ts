import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { API_KEY_SCOPES, keyMayCallOperation } from '@cc/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { apiSuite, createTestApp, type TestApp, type TestUser } from '../../../test/helpers.ts';
import { MCP_TOOL_OPERATIONS, READ_OPERATION_OF_HIT } from './mcp.tools.ts';

/**
 * The MCP tools read the REST gate's route → scope table (contract/src/api-key-routes.ts): a key is
 * offered a tool exactly when it may call the REST operation the tool mirrors, so a scope the REST
 * routes refuse never opens the same data through /mcp.
 */
apiSuite('MCP tools follow the API key route table', () => {
  let t: TestApp;
  let base: string;
  let owner: TestUser;
  const clients: Client[] = [];
  beforeAll(async () => {
    t = await createTestApp();
    base = await t.listen();
    owner = await t.createUser('ceo');
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close().catch(() => {})));
    await t.close();
  });

  const toolsOf = async (scopes: string[]) => {
    const res = await t.req({
      method: 'POST',
      url: '/api/users/me/api-keys',
      token: owner.token,
      body: { name: 'assistant', scopes },
    });
    expect(res.statusCode).toBe(201);
    const client = new Client({ name: 'scope-check', version: '1.0.0' });
    clients.push(client);
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
        requestInit: { headers: { Authorization: `Bearer ${res.json().secret}` } },
      }),
    );
    return (await client.listTools()).tools.map((x) => x.name).sort();
  };

  const expected = (scopes: string[]) => {
    const held = new Set(scopes);
    const tools = Object.entries(MCP_TOOL_OPERATIONS)
      .filter(([, op]) => keyMayCallOperation(held, op))
      .map(([name]) => name);
    if (Object.values(READ_OPERATION_OF_HIT).some((op) => keyMayCallOperation(held, op))) {
      tools.push('search_workspace');
    }
    return tools.sort();
  };

  it('every tool mirrors an operation that has a row', () => {
    for (const op of [...Object.values(MCP_TOOL_OPERATIONS), ...Object.values(READ_OPERATION_OF_HIT)]) {
      expect(keyMayCallOperation(new Set(API_KEY_SCOPES), op), op).toBe(true);
    }
  });

  it('offers, for each single scope, exactly the tools whose operation that scope may call', async () => {
    expect(await toolsOf(['read:goals'])).toEqual(['get_goal', 'list_goals', 'search_workspace']);
    for (const scope of API_KEY_SCOPES) {
      expect(await toolsOf([scope]), scope).toEqual(expected([scope]));
    }
    expect(await toolsOf([...API_KEY_SCOPES])).toEqual(
      [...Object.keys(MCP_TOOL_OPERATIONS), 'search_workspace'].sort(),
    );
  });
});
