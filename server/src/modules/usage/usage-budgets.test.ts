import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { apiSuite, createTestApp, type TestApp, type TestUser } from '../../../test/helpers.ts';
import { type MockOpenAI, startMockOpenAI } from '../../../test/mock-openai.ts';
import { setUsageClock } from './usage-clock.ts';
import { reserveSpend, settleSpend, USAGE_WARNINGS_CHANNEL } from './usage-meter.service.ts';

const NOV_24 = new Date('2026-11-24T12:00:00Z');

apiSuite('monthly AI budgets', () => {
  let mock: MockOpenAI;
  let t: TestApp;
  let admin: TestUser;
  let ceo: TestUser;
  let member: TestUser;
  let orgId: string;
  let now = NOV_24;
  beforeAll(async () => {
    mock = await startMockOpenAI({ models: ['gpt-5-chat'] });
    t = await createTestApp({ OPENAI_BASE_URL: mock.url, OPENAI_API_KEY: 'test-key', AI_MAX_RETRIES: '0' });
    setUsageClock(t.ctx, () => now);
    admin = await t.createUser('admin');
    ceo = await t.createUser('ceo');
    member = await t.createUser('user');
    orgId = await t.createOrg(ceo);
    await t.addToOrg(ceo, orgId, member);
    member.token = await t.login(member.email);
    // $1,000 per million output tokens: 1,000 output tokens cost $1 (the estimate of a call without a limit).
    await t.req({
      method: 'PUT',
      url: '/api/admin/model-prices',
      token: admin.token,
      body: { models: [{ model: 'gpt-5-chat', input_per_million_usd: 0, output_per_million_usd: 1000 }] },
    });
  });
  afterEach(async () => {
    now = NOV_24;
    for (const table of ['usage_budgets', 'usage_counters', 'usage_events', 'usage_daily'] as const)
      await t.ctx.db.deleteFrom(table).execute();
  });
  afterAll(async () => {
    await t.close();
    await mock.close();
  });

  const setOutputPrice = async (usd: number) => {
    const res = await t.req({
      method: 'PUT',
      url: '/api/admin/model-prices',
      token: admin.token,
      body: { models: [{ model: 'gpt-5-chat', input_per_million_usd: 0, output_per_million_usd: usd }] },
    });
    expect(res.statusCode).toBe(200);
  };
  const put = (url: string, token: string, monthly_usd: number | null) =>
    t.req({ method: 'PUT', url, token, body: { monthly_usd } });
  const chat = async (u: TestUser) => {
    const c = (await t.req({ method: 'POST', url: '/api/conversations/', token: u.token, body: {} })).json()
      .id;
    return t.req({
      method: 'POST',
      url: `/api/conversations/${c}/chat`,
      token: u.token,
      body: { message_text: 'Hi' },
    });
  };
  /** A chat turn that uses `outputTokens` (at $1,000 per million). */
  const spend = async (u: TestUser, outputTokens: number) => {
    mock.script({
      kind: 'text',
      chunks: ['ok'],
      usage: { prompt_tokens: 0, completion_tokens: outputTokens },
    });
    const res = await chat(u);
    expect(res.statusCode, res.body).toBe(200);
  };

  it('a budget answers with what is used, what is left and when it resets', async () => {
    const set = await put(`/api/organizations/${orgId}/budget`, ceo.token, 50);
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toEqual({ monthly_usd: 50, used_usd: 0, remaining_usd: 50, resets_on: '2026-12-01' });
    await spend(member, 1_500);
    const got = await t.req({ method: 'GET', url: `/api/organizations/${orgId}/budget`, token: ceo.token });
    expect(got.json()).toEqual({
      monthly_usd: 50,
      used_usd: 1.5,
      remaining_usd: 48.5,
      resets_on: '2026-12-01',
    });
    const none = await put(`/api/organizations/${orgId}/budget`, ceo.token, null);
    expect(none.json()).toEqual({
      monthly_usd: null,
      used_usd: 1.5,
      remaining_usd: null,
      resets_on: '2026-12-01',
    });
  });

  it('refuses a call that would pass the budget with 429 and the exact text; nothing is stored', async () => {
    await put(`/api/organizations/${orgId}/budget`, admin.token, 50);
    // At $2,000 per million output tokens a call reserves about $2: $48.20 + $2 would pass $50.
    await setOutputPrice(2000);
    await spend(member, 24_100);
    const c = (
      await t.req({ method: 'POST', url: '/api/conversations/', token: member.token, body: {} })
    ).json().id;
    const before = mock.chatRequests().length;
    const res = await t.req({
      method: 'POST',
      url: `/api/conversations/${c}/chat`,
      token: member.token,
      body: { message_text: 'One more question' },
    });
    expect(res.statusCode).toBe(429);
    expect(res.json()).toEqual({
      detail: 'Monthly AI budget reached: $48.20 of $50.00 used; it resets on 1 December.',
    });
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(mock.chatRequests().length).toBe(before);
    const msgs = await t.req({ method: 'GET', url: `/api/conversations/${c}/messages`, token: member.token });
    expect(msgs.json().items).toEqual([]);
    await setOutputPrice(1000);
  });

  it("a member's own budget is applied in their organization and set by its admin", async () => {
    const url = `/api/organizations/${orgId}/users/${member.id}/budget`;
    expect((await put(url, member.token, 100)).statusCode).toBe(403);
    const set = await put(url, ceo.token, 2);
    expect(set.json()).toMatchObject({ monthly_usd: 2, used_usd: 0, remaining_usd: 2 });
    await spend(member, 1_200);
    const res = await chat(member);
    expect(res.statusCode).toBe(429);
    expect(res.json().detail).toBe(
      'Monthly AI budget reached: $1.20 of $2.00 used; it resets on 1 December.',
    );
    // The ceo, in the same organization without a budget of their own, is not held by it.
    mock.script({ kind: 'text', chunks: ['fine'] });
    expect((await chat(ceo)).statusCode).toBe(200);
    const me = await t.req({ method: 'GET', url: '/api/users/me/usage', token: member.token });
    expect(me.json()).toMatchObject({
      month: '2026-11',
      total: { calls: 1, output_tokens: 1_200, cost_usd: 1.2 },
      budget: { monthly_usd: 2, used_usd: 1.2, remaining_usd: 0.8, resets_on: '2026-12-01' },
    });
    // A user who is no member of the organization: 404.
    const stranger = await t.createUser('user');
    expect(
      (
        await t.req({
          method: 'GET',
          url: `/api/organizations/${orgId}/users/${stranger.id}/budget`,
          token: ceo.token,
        })
      ).statusCode,
    ).toBe(404);
  });

  it('50 concurrent reservations against a budget that fits 10 let exactly 10 through', async () => {
    await put(`/api/organizations/${orgId}/budget`, ceo.token, 10);
    const target = { userId: member.id, organizationId: orgId };
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, () => reserveSpend(t.ctx, target, 1_000_000)),
    );
    const ok = results.filter((r) => r.status === 'fulfilled');
    expect(ok).toHaveLength(10);
    const refused = results.filter((r) => r.status === 'rejected') as PromiseRejectedResult[];
    expect(refused[0].reason).toMatchObject({ statusCode: 429 });
    const counter = await t.ctx.db
      .selectFrom('usage_counters')
      .selectAll()
      .where('scope_key', '=', `org:${orgId}`)
      .executeTakeFirstOrThrow();
    expect(Number(counter.reserved_micros)).toBe(10_000_000);
    // Settling at the real (lower) cost frees the rest of the estimate.
    for (const r of ok) {
      await settleSpend(
        t.ctx,
        {
          ...target,
          feature: 'chat',
          conversationId: null,
          runId: null,
          model: 'gpt-5-chat',
          engine: 'openai',
        },
        (r as PromiseFulfilledResult<Awaited<ReturnType<typeof reserveSpend>>>).value,
        { inputTokens: 1, outputTokens: 1, costMicros: 500_000, durationMs: 1, outcome: 'ok', at: now },
      );
    }
    const after = await t.req({ method: 'GET', url: `/api/organizations/${orgId}/budget`, token: ceo.token });
    expect(after.json()).toMatchObject({ used_usd: 5, remaining_usd: 5 });
  });

  it("a reservation the member's budget refuses gives back what it held on the organization", async () => {
    await put(`/api/organizations/${orgId}/budget`, ceo.token, 100);
    await put(`/api/organizations/${orgId}/users/${member.id}/budget`, ceo.token, 3);
    const target = { userId: member.id, organizationId: orgId };
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, () => reserveSpend(t.ctx, target, 1_000_000)),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(3);
    const refused = results.filter((r) => r.status === 'rejected') as PromiseRejectedResult[];
    expect(refused[0].reason).toMatchObject({ statusCode: 429 });
    expect(refused[0].reason.message).toContain('of $3.00 used');
    const held = await t.ctx.db
      .selectFrom('usage_counters')
      .select(['scope_key', 'reserved_micros'])
      .where('month', '=', '2026-11')
      .orderBy('scope_key')
      .execute();
    // Only the three calls let through hold anything, on both counters.
    expect(held.map((r) => [r.scope_key, Number(r.reserved_micros)])).toEqual([
      [`member:${orgId}:${member.id}`, 3_000_000],
      [`org:${orgId}`, 3_000_000],
    ]);
  });

  it('50 concurrent chat turns against a budget that fits 10: at most 10 are answered, the rest 429', async () => {
    // Each turn reserves $1 (1,000 output tokens at $1,000 per million; the input is free) and uses
    // exactly that, so however the turns interleave, $10.50 lets 10 through and no more.
    await put(`/api/organizations/${orgId}/users/${member.id}/budget`, ceo.token, 10.5);
    const ids: string[] = [];
    for (let i = 0; i < 50; i++)
      ids.push(
        (await t.req({ method: 'POST', url: '/api/conversations/', token: member.token, body: {} })).json()
          .id,
      );
    // Refused turns never reach the model: ten replies are scripted (the rest would be the default).
    mock.script(
      ...ids.slice(0, 10).map(() => ({
        kind: 'text' as const,
        chunks: ['x'],
        delayMs: 50,
        usage: { prompt_tokens: 0, completion_tokens: 1_000 },
      })),
    );
    const statuses = await Promise.all(
      ids.map(
        async (c) =>
          (
            await t.req({
              method: 'POST',
              url: `/api/conversations/${c}/chat`,
              token: member.token,
              body: { message_text: 'q' },
            })
          ).statusCode,
      ),
    );
    expect(statuses.filter((s) => s === 200).length).toBe(10);
    expect(statuses.filter((s) => s !== 200).every((s) => s === 429)).toBe(true);
    const b = await t.req({
      method: 'GET',
      url: `/api/organizations/${orgId}/users/${member.id}/budget`,
      token: ceo.token,
    });
    expect(b.json()).toMatchObject({ used_usd: 10, remaining_usd: 0.5 });
  }, 30_000);

  it('administrators are warned once a month when a budget passes 80 %', async () => {
    await put(`/api/organizations/${orgId}/budget`, ceo.token, 10);
    const notes: unknown[] = [];
    const off = t.ctx.bus.subscribe(USAGE_WARNINGS_CHANNEL, (n) => notes.push(n));
    try {
      await spend(member, 7_000); // $7: 70 %, no warning
      await spend(member, 1_500); // $8.50: past 80 %
      await spend(member, 100); // still past: no second warning
      await expect.poll(() => notes.length).toBe(1);
      await new Promise((r) => setTimeout(r, 50));
      expect(notes).toEqual([
        { scope_key: `org:${orgId}`, month: '2026-11', used_usd: 8.5, monthly_usd: 10 },
      ]);
    } finally {
      off();
    }
  });

  it('a new month starts with nothing used', async () => {
    now = new Date('2026-11-30T23:59:00Z');
    await put(`/api/organizations/${orgId}/budget`, ceo.token, 1);
    await spend(member, 900);
    expect((await chat(member)).statusCode).toBe(429);
    now = new Date('2026-12-01T00:00:30Z');
    const fresh = await t.req({ method: 'GET', url: `/api/organizations/${orgId}/budget`, token: ceo.token });
    expect(fresh.json()).toEqual({ monthly_usd: 1, used_usd: 0, remaining_usd: 1, resets_on: '2027-01-01' });
    mock.script({ kind: 'text', chunks: ['ok'], usage: { prompt_tokens: 0, completion_tokens: 1 } });
    expect((await chat(member)).statusCode).toBe(200);
  });

  it('budgets of other organizations are not found; plain members may not read or set them', async () => {
    const otherCeo = await t.createUser('ceo');
    const otherOrg = await t.createOrg(otherCeo);
    expect(
      (await t.req({ method: 'GET', url: `/api/organizations/${otherOrg}/budget`, token: ceo.token }))
        .statusCode,
    ).toBe(404);
    expect(
      (await t.req({ method: 'GET', url: `/api/organizations/${orgId}/budget`, token: member.token }))
        .statusCode,
    ).toBe(403);
    expect((await put(`/api/organizations/${orgId}/budget`, member.token, 1000)).statusCode).toBe(403);
    expect((await put(`/api/organizations/${orgId}/budget`, ceo.token, -1)).statusCode).toBe(422);
    expect(
      (await t.req({ method: 'GET', url: `/api/organizations/${otherOrg}/budget`, token: admin.token }))
        .statusCode,
    ).toBe(200);
  });
});
