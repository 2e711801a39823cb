import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { apiSuite, createTestApp, type TestApp, type TestUser } from '../../../test/helpers.ts';
import { streamAssistantTurn } from '../assistant.ts';
import { buildTools } from './index.ts';

apiSuite('web search (SearXNG-style provider)', () => {
  let server: http.Server;
  let t: TestApp;
  let user: TestUser;
  const queries: string[] = [];
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      queries.push(url.searchParams.get('q') ?? '');
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify({
          results: [
            {
              title: 'Heron market report',
              url: 'https://example.com/heron',
              content: 'Heron sales grew 12%.',
            },
            { title: 'Bad scheme', url: 'javascript:alert(1)', content: 'x' },
          ],
        }),
      );
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    // The operator's own search host is trusted although it is on loopback.
    t = await createTestApp({ SEARCH_PROVIDER: 'searxng', SEARCH_URL: `http://127.0.0.1:${port}` });
    user = await t.createUser('user');
  });
  afterAll(async () => {
    await t.close();
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  });

  const authUser = () => ({
    id: user.id,
    email: user.email,
    first_name: null,
    last_name: null,
    user_level: 'user',
    organization_id: null,
  });

  it('is offered only when configured, and the offline answer cites the web results', async () => {
    expect(Object.keys(buildTools(t.ctx, authUser(), ['web_search', 'nope']))).toEqual(['web_search']);
    const turn = await streamAssistantTurn({
      ctx: t.ctx,
      user: authUser(),
      history: [],
      message: 'Latest heron market news?',
      useMemory: false,
      useInternalSearch: false,
      useInternet: true,
    });
    const result = await turn.result;
    expect(queries.at(-1)).toBe('heron market news');
    expect(result.text).toContain('[Heron market report](https://example.com/heron): Heron sales grew 12%.');
    expect(result.text).not.toContain('javascript:');
    expect(result.sources).toEqual([
      { type: 'web', id: 'https://example.com/heron', title: 'Heron market report' },
    ]);
  });
});
