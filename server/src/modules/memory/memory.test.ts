import { afterAll, beforeAll, expect, it } from 'vitest';
import { apiSuite, createTestApp, type TestApp, type TestUser } from '../../../test/helpers.ts';
import { relevantMemories } from './memory.service.ts';

apiSuite('memory', () => {
  let t: TestApp;
  let alice: TestUser;
  let bob: TestUser;
  let waitlisted: TestUser;
  beforeAll(async () => {
    t = await createTestApp();
    alice = await t.createUser('user');
    bob = await t.createUser('user');
    waitlisted = await t.createUser('waitlisted');
  });
  afterAll(() => t.close());

  const mine = (u: TestUser, content: string) =>
    t.req({
      method: 'POST',
      url: '/api/memory/mine',
      token: u.token,
      body: { content, metadata: { conversation_id: 'conv-1' } },
    });
  const list = async (u: TestUser) => {
    const res = await t.req({ method: 'GET', url: '/api/memory/', token: u.token });
    expect(res.statusCode).toBe(200);
    return res.json() as { id: string; content: string; conversation_id: string | null }[];
  };

  it('extracts durable facts about the user (offline heuristics) and stores them for that user only', async () => {
    const res = await mine(
      alice,
      "I'm the COO of Northwind. Can you book a room? My team is in Berlin. I prefer morning meetings.",
    );
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.added.map((m: { content: string }) => m.content)).toEqual([
      "I'm the COO of Northwind.",
      'My team is in Berlin.',
      'I prefer morning meetings.',
    ]);
    expect(body.added[0].conversation_id).toBe('conv-1');
    expect(body.skipped).toBe(0);
    expect((await list(alice)).length).toBe(3);
    expect(await list(bob)).toEqual([]);
  });

  it('mines an exchange from what the user wrote, never from the reply', async () => {
    const carol = await t.createUser('user');
    const res = await mine(
      carol,
      'User: I lead the sales team in Lyon. Who owns the Zeta deal?\n\n' +
        'Assistant: I am the offline engine. My records say Dana owns it. I prefer short answers.',
    );
    expect(res.statusCode).toBe(200);
    expect(res.json().added.map((m: { content: string }) => m.content)).toEqual([
      'I lead the sales team in Lyon.',
    ]);
    expect((await list(carol)).map((m) => m.content)).toEqual(['I lead the sales team in Lyon.']);
  });

  it('de-duplicates by normalized text', async () => {
    const res = await mine(alice, 'i prefer MORNING meetings!! My team is   in Berlin');
    expect(res.json()).toMatchObject({ added: [], skipped: 2 });
    expect((await list(alice)).length).toBe(3);
  });

  it('ranks relevant memories first', async () => {
    const top = await relevantMemories(t.ctx, alice.id, 'Plan meetings for next week', 1);
    expect(top).toEqual(['I prefer morning meetings.']);
    expect(await relevantMemories(t.ctx, bob.id, 'meetings', 5)).toEqual([]);
  });

  it("another user's memory is 404; the owner can delete it", async () => {
    const [m] = await list(alice);
    expect((await t.req({ method: 'DELETE', url: `/api/memory/${m.id}`, token: bob.token })).statusCode).toBe(
      404,
    );
    expect((await list(alice)).some((x) => x.id === m.id)).toBe(true);
    expect(
      (await t.req({ method: 'DELETE', url: `/api/memory/${m.id}`, token: alice.token })).statusCode,
    ).toBe(204);
    expect(
      (await t.req({ method: 'DELETE', url: `/api/memory/${m.id}`, token: alice.token })).statusCode,
    ).toBe(404);
  });

  it('needs an active account; validates the body', async () => {
    expect((await t.req({ method: 'GET', url: '/api/memory/' })).statusCode).toBe(401);
    expect((await t.req({ method: 'GET', url: '/api/memory/', token: waitlisted.token })).statusCode).toBe(
      403,
    );
    expect((await mine(waitlisted, 'I am here')).statusCode).toBe(403);
    const bad = await t.req({
      method: 'POST',
      url: '/api/memory/mine',
      token: alice.token,
      body: { metadata: {} },
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().detail).toBeDefined();
  });
});
