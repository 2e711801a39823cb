import Database from 'better-sqlite3';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type MockOpenAI, startMockOpenAI } from '../../../test/mock-openai.ts';
import { apiSuite, createTestApp, TEST_DB, type TestApp, type TestUser } from '../../../test/helpers.ts';

/**
 * What a chat turn does before its model request leaves (issue 18: fifty turns at once wait for each
 * other's setup): one reservation update per budget scope once the month's counters exist, the
 * reservation's checks run once, and the attachments of the conversation as they are now.
 */
apiSuite('a chat turn before its model request', () => {
  let mock: MockOpenAI;
  let t: TestApp;
  let u: TestUser;
  let base: string;
  beforeAll(async () => {
    mock = await startMockOpenAI({ models: ['gpt-5-chat'] });
    t = await createTestApp({ OPENAI_BASE_URL: mock.url, AI_MAX_RETRIES: '0' });
    const owner = await t.createUser('ceo');
    const orgId = await t.createOrg(owner);
    u = await t.createUser('user');
    await t.addToOrg(owner, orgId, u);
    base = await t.listen();
  });
  afterAll(async () => {
    await t.close();
    await mock.close();
  });

  const conversation = async () =>
    (await t.req({ method: 'POST', url: '/api/conversations/', token: u.token, body: {} })).json()
      .id as string;
  const turn = (id: string, text: string) =>
    t.req({
      method: 'POST',
      url: `/api/conversations/${id}/chat`,
      token: u.token,
      body: { message_text: text, model: 'gpt-5-chat', context_messages: 0 },
    });

  /** Every SQLite statement run while `fn` runs, with when it ran (performance.now()). */
  async function statementsOf(fn: () => Promise<unknown>): Promise<{ at: number; sql: string }[]> {
    const proto = Object.getPrototypeOf(new Database(':memory:').prepare('select 1'));
    const seen: { at: number; sql: string }[] = [];
    const originals = new Map<string, (...a: unknown[]) => unknown>();
    for (const method of ['run', 'all', 'get', 'iterate']) {
      const original = proto[method];
      originals.set(method, original);
      proto[method] = function (this: { source: string }, ...args: unknown[]) {
        seen.push({ at: performance.now(), sql: this.source });
        return original.apply(this, args);
      };
    }
    try {
      await fn();
    } finally {
      for (const [method, original] of originals) proto[method] = original;
    }
    return seen;
  }

  it.skipIf(TEST_DB !== 'sqlite')(
    'reserves on both budget scopes with one update once the counters exist, outside a transaction',
    async () => {
      const id = await conversation();
      expect((await turn(id, 'first')).statusCode).toBe(200);
      const before = mock.chatRequests().length;
      const statements = await statementsOf(async () => {
        expect((await turn(id, 'second')).statusCode).toBe(200);
      });
      const sentAt = mock.chatRequests()[before].receivedAt;
      const setup = statements.filter((s) => s.at <= sentAt).map((s) => s.sql);
      expect(setup.some((q) => /from "conversations"/.test(q))).toBe(true);
      // The organization's and the member's counters: one conditional update of both, nothing else,
      // and no transaction holding the organization's row across round trips.
      expect(setup.filter((q) => /usage_counters/.test(q))).toEqual([
        expect.stringMatching(/^update usage_counters set reserved_micros[\s\S]*scope_key in \(/),
      ]);
      // The model call uses the estimate the turn's reservation was made with: the checks behind it
      // (offered, priced, under a budget) are not run a second time before the request.
      expect(setup.filter((q) => /from "usage_budgets"/.test(q))).toHaveLength(1);
      // (An application transaction is `begin`, or a savepoint inside the SQLite commit group, whose
      // own `begin immediate` only gathers concurrent writes for one COMMIT: see commit-group.ts.)
      expect(setup.filter((q) => /^\s*(begin|savepoint)\b/i.test(q) && q !== 'begin immediate')).toEqual([]);
    },
  );

  it('gives the model a file attached after the conversation’s first turn (the prepared probe is not stale)', async () => {
    const id = await conversation();
    mock.script({ kind: 'text', chunks: ['Nothing attached.'] });
    expect((await turn(id, 'Anything attached?')).json().content).toBe('Nothing attached.');
    const first = mock.chatRequests().at(-1)?.body as { messages: { role: string; content: string }[] };
    expect(first.messages.find((m) => m.role === 'system')?.content).not.toContain('targets.txt');

    const form = new FormData();
    form.append('files', new Blob(['Revenue target: 5 million.'], { type: 'text/plain' }), 'targets.txt');
    const up = await fetch(`${base}/api/files/?conversation_id=${id}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${u.token}` },
      body: form,
    });
    expect(up.status).toBe(201);
    mock.script({ kind: 'text', chunks: ['5 million.'] });
    expect((await turn(id, 'And now?')).json().content).toBe('5 million.');
    const second = mock.chatRequests().at(-1)?.body as { messages: { role: string; content: string }[] };
    expect(second.messages.find((m) => m.role === 'system')?.content).toContain(
      '[File “targets.txt”]\nRevenue target: 5 million.',
    );
  });
});
