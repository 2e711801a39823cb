import { createHash } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { apiSuite, createTestApp, type TestApp, type TestUser } from '../../../test/helpers.ts';

/**
 * Issue 46 row 14: `/mcp` is limited per API key and per user, each element of a JSON-RPC batch
 * counting; a batch holds at most 20 messages and an empty one is an Invalid Request; the ledger keeps
 * a digest and the first 1 KB of a call's arguments, not a second full copy.
 */
const PER_KEY = 25;
const PER_USER = 30;

type Message = Record<string, unknown>;

apiSuite('the MCP server: batch size, rate limits and what the ledger keeps', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({
      LIMIT_MCP_CALLS_PER_KEY_PER_MINUTE: String(PER_KEY),
      LIMIT_MCP_CALLS_PER_USER_PER_MINUTE: String(PER_USER),
    });
  });
  afterAll(() => t.close());

  const keyFor = async (u: TestUser) => {
    const res = await t.req({
      method: 'POST',
      url: '/api/users/me/api-keys',
      token: u.token,
      body: { name: 'Assistant', scopes: ['read:notes', 'write:notes'] },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().secret as string;
  };
  const post = (secret: string, body: Message | Message[]): Promise<LightMyRequestResponse> =>
    t.app.inject({
      method: 'POST',
      url: '/mcp',
      headers: {
        authorization: `Bearer ${secret}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      payload: JSON.stringify(body),
    });
  let nextId = 1;
  const createNote = (content: string): Message => ({
    jsonrpc: '2.0',
    id: nextId++,
    method: 'tools/call',
    params: { name: 'create_note', arguments: { content } },
  });
  const listTools = (): Message => ({ jsonrpc: '2.0', id: nextId++, method: 'tools/list' });
  const notesOf = async (u: TestUser) =>
    (await t.ctx.db.selectFrom('journals').select('id').where('user_id', '=', u.id).execute()).length;
  const ledgerOf = (u: TestUser) =>
    t.ctx.db
      .selectFrom('activity')
      .select(['after'])
      .where('actor_user_id', '=', u.id)
      .where('action', '=', 'mcp.create_note')
      .execute();
  const expectInvalidRequest = (res: LightMyRequestResponse, message: RegExp) => {
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
    expect(res.json().error.message).toMatch(message);
  };

  it('refuses a 0.9 MB batch of 100 create_note calls whole: no note, no ledger entry, nothing counted', async () => {
    const u = await t.createUser('user');
    const secret = await keyFor(u);
    const batch = Array.from({ length: 100 }, () => createNote('n'.repeat(9_000)));
    expect(JSON.stringify(batch).length).toBeGreaterThan(900_000);
    expectInvalidRequest(await post(secret, batch), /at most 20 messages \(this one has 100\)/);
    expect(await notesOf(u)).toBe(0);
    expect(await ledgerOf(u)).toHaveLength(0);
    // The refused batch counted nothing: the key still has its whole minute.
    const ok = await post(secret, listTools());
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.headers['x-ratelimit-remaining']).toBe(String(PER_KEY - 1));
  });

  it('takes a batch of 20 and refuses one of 21', async () => {
    const u = await t.createUser('user');
    const secret = await keyFor(u);
    expectInvalidRequest(
      await post(
        secret,
        Array.from({ length: 21 }, (_, i) => createNote(`note ${i}`)),
      ),
      /at most 20 messages/,
    );
    expect(await notesOf(u)).toBe(0);
    const res = await post(
      secret,
      Array.from({ length: 20 }, (_, i) => createNote(`note ${i}`)),
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toHaveLength(20);
    expect(await notesOf(u)).toBe(20);
  });

  it('answers an empty batch with an Invalid Request error', async () => {
    const u = await t.createUser('user');
    expectInvalidRequest(await post(await keyFor(u), []), /empty batch/);
  });

  it('limits each key and each user, counting every batch element; 429 with Retry-After', async () => {
    const [u, other] = [await t.createUser('user'), await t.createUser('user')];
    const [first, second] = [await keyFor(u), await keyFor(u)];
    // 20 + 5 elements fill the first key's minute.
    expect((await post(first, Array.from({ length: 20 }, listTools))).statusCode).toBe(200);
    const fifth = await post(first, Array.from({ length: 5 }, listTools));
    expect(fifth.statusCode).toBe(200);
    expect(fifth.headers['x-ratelimit-remaining']).toBe('0');
    const refused = await post(first, listTools());
    expect(refused.statusCode, refused.body).toBe(429);
    expect(refused.json().detail).toMatch(
      /Too many MCP requests with this API key \(at most 25 a minute\)\. Please try again in \d+ (seconds?|minutes?)\./,
    );
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // A batch that does not fit in what is left is refused whole: nothing of it runs.
    const notesBefore = await notesOf(u);
    const overUser = await post(
      second,
      Array.from({ length: 6 }, (_, i) => createNote(`late ${i}`)),
    );
    expect(overUser.statusCode, overUser.body).toBe(429);
    expect(overUser.json().detail).toMatch(/Too many MCP requests from your API keys together \(at most 30/);
    expect(await notesOf(u)).toBe(notesBefore);
    // The second key has the rest of the user's minute (5), then the user's limit refuses it too.
    expect((await post(second, Array.from({ length: 5 }, listTools))).statusCode).toBe(200);
    expect((await post(second, listTools())).statusCode).toBe(429);
    // Another user is not affected; the next minute starts over.
    expect((await post(await keyFor(other), listTools())).statusCode).toBe(200);
    t.ctx.limits.clock.advance(60_000);
    expect((await post(first, listTools())).statusCode).toBe(200);
  });

  it('the ledger keeps the digest and the first 1 KB of the arguments; the note keeps them whole', async () => {
    const u = await t.createUser('user');
    const content = `${'é'.repeat(600)}${'x'.repeat(8_400)}`;
    const res = await post(await keyFor(u), createNote(content));
    expect(res.statusCode, res.body).toBe(200);
    const note = await t.ctx.db
      .selectFrom('journals')
      .select('content')
      .where('user_id', '=', u.id)
      .executeTakeFirstOrThrow();
    expect(note.content).toBe(content);
    const [entry] = await ledgerOf(u);
    expect(entry.after?.length ?? 0).toBeLessThan(1_500);
    const full = JSON.stringify({ content });
    const { arguments: args } = JSON.parse(entry.after ?? '{}');
    expect(args).toEqual({
      sha256: createHash('sha256').update(full).digest('hex'),
      bytes: Buffer.byteLength(full),
      preview: expect.any(String),
      truncated: true,
    });
    expect(full.startsWith(args.preview)).toBe(true);
    expect(Buffer.byteLength(args.preview)).toBeLessThanOrEqual(1024);
    expect(Buffer.byteLength(args.preview)).toBeGreaterThan(1020);
  });
});
