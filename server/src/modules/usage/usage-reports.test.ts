import { afterAll, beforeAll, expect, it } from 'vitest';
import { apiSuite, createTestApp, type TestApp, type TestUser } from '../../../test/helpers.ts';
import { setUsageClock } from './usage-clock.ts';
import { type MeterTarget, reserveSpend, settleSpend } from './usage-meter.service.ts';

apiSuite('usage reports: summary, export, own usage, prices', () => {
  let t: TestApp;
  let admin: TestUser;
  let ceo: TestUser;
  let member: TestUser;
  let otherCeo: TestUser;
  let orgId: string;
  let otherOrg: string;
  const now = new Date('2026-11-24T12:00:00Z');

  /** One settled call on `day` costing `micros`. */
  const call = async (
    who: TestUser,
    org: string | null,
    o: { day: string; micros: number; model?: string; feature?: string },
  ) => {
    const target: MeterTarget = {
      userId: who.id,
      organizationId: org,
      feature: o.feature ?? 'chat',
      conversationId: null,
      runId: null,
      model: o.model ?? 'gpt-5',
      engine: 'openai',
    };
    const at = new Date(`${o.day}T10:00:00Z`);
    setUsageClock(t.ctx, () => at);
    const r = await reserveSpend(t.ctx, target, 0);
    await settleSpend(t.ctx, target, r, {
      inputTokens: 100,
      outputTokens: 50,
      costMicros: o.micros,
      durationMs: 12,
      outcome: 'ok',
      at,
    });
    setUsageClock(t.ctx, () => now);
  };

  beforeAll(async () => {
    t = await createTestApp();
    setUsageClock(t.ctx, () => now);
    admin = await t.createUser('admin');
    ceo = await t.createUser('ceo', { first_name: 'Olivia' });
    member = await t.createUser('user', { first_name: 'Maya' });
    otherCeo = await t.createUser('ceo');
    orgId = await t.createOrg(ceo, 'Acme');
    otherOrg = await t.createOrg(otherCeo, 'Globex');
    await t.addToOrg(ceo, orgId, member);
    await call(member, orgId, { day: '2026-11-02', micros: 1_500_000, feature: 'chat' });
    await call(member, orgId, { day: '2026-11-02', micros: 500_000, feature: 'memory', model: 'gpt-5-mini' });
    await call(ceo, orgId, { day: '2026-11-05', micros: 2_000_000, feature: 'crew' });
    await call(otherCeo, otherOrg, { day: '2026-11-05', micros: 4_000_000 });
    await call(member, orgId, { day: '2026-10-30', micros: 9_000_000 });
  });
  afterAll(() => t.close());

  const get = (url: string, u: TestUser) => t.req({ method: 'GET', url, token: u.token });

  it('the platform admin sees spend per day of the month, across organizations', async () => {
    const res = await get('/api/usage/summary?group_by=day', admin);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      group_by: 'day',
      since: '2026-11-01',
      until: '2026-11-30',
      organization_id: null,
    });
    expect(
      body.rows.map((r: { key: string; cost_usd: number; calls: number }) => [r.key, r.cost_usd, r.calls]),
    ).toEqual([
      ['2026-11-02', 2, 2],
      ['2026-11-05', 6, 2],
    ]);
    expect(body.total).toEqual({ calls: 4, input_tokens: 400, output_tokens: 200, cost_usd: 8 });
  });

  it('groups by person, organization, model and feature with names', async () => {
    const byUser = (await get('/api/usage/summary?group_by=user', admin)).json();
    expect(byUser.rows.map((r: { label: string; cost_usd: number }) => [r.label, r.cost_usd]).sort()).toEqual(
      [
        ['Maya Tester', 2],
        ['Olivia Tester', 2],
        [expect.any(String), 4],
      ].sort(),
    );
    const byOrg = (await get('/api/usage/summary?group_by=organization', admin)).json();
    expect(byOrg.rows.map((r: { label: string; cost_usd: number }) => [r.label, r.cost_usd])).toEqual(
      expect.arrayContaining([
        ['Acme', 4],
        ['Globex', 4],
      ]),
    );
    const byModel = (await get(`/api/usage/summary?group_by=model&organization_id=${orgId}`, admin)).json();
    expect(byModel.rows.map((r: { key: string; cost_usd: number }) => [r.key, r.cost_usd])).toEqual([
      ['gpt-5', 3.5],
      ['gpt-5-mini', 0.5],
    ]);
    const byFeature = (
      await get('/api/usage/summary?group_by=feature&since=2026-10-01&until=2026-10-31', admin)
    ).json();
    expect(byFeature.rows).toEqual([
      { key: 'chat', label: 'Chat', calls: 1, input_tokens: 100, output_tokens: 50, cost_usd: 9 },
    ]);
  });

  it("an organization's admin sees their organization only; members see no one's", async () => {
    const own = await get(`/api/usage/summary?group_by=user&organization_id=${orgId}`, ceo);
    expect(own.statusCode, own.body).toBe(200);
    expect(own.json().total.cost_usd).toBe(4);
    expect((await get(`/api/usage/summary?group_by=user&organization_id=${otherOrg}`, ceo)).statusCode).toBe(
      404,
    );
    expect((await get('/api/usage/summary?group_by=user', ceo)).statusCode).toBe(403);
    expect((await get(`/api/usage/summary?group_by=user&organization_id=${orgId}`, member)).statusCode).toBe(
      403,
    );
    expect((await get(`/api/usage/export?format=csv&organization_id=${orgId}`, member)).statusCode).toBe(403);
  });

  it('exports the calls of a range as CSV', async () => {
    const res = await get(`/api/usage/export?format=csv&organization_id=${orgId}`, ceo);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    const lines = res.body.trim().split('\n');
    expect(lines[0]).toBe(
      'time,user_id,user,organization_id,organization,model,engine,feature,conversation_id,run_id,input_tokens,output_tokens,cost_usd,duration_ms,outcome',
    );
    expect(lines).toHaveLength(4);
    expect(lines.find((l) => l.startsWith('2026-11-02') && l.includes(',chat,'))).toContain(
      `,${member.id},Maya Tester,${orgId},Acme,gpt-5,openai,chat,,,100,50,1.500000,12,ok`,
    );
  });

  it('each person sees their own usage of the month', async () => {
    const res = await get('/api/users/me/usage', member);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      month: '2026-11',
      total: { calls: 2, cost_usd: 2 },
      by_feature: [
        { key: 'chat', label: 'Chat', cost_usd: 1.5 },
        { key: 'memory', label: 'Memory', cost_usd: 0.5 },
      ],
      budget: { monthly_usd: null, used_usd: 2, remaining_usd: null, resets_on: '2026-12-01' },
    });
  });

  it('prices: defaults for the allowed models, edited by the platform admin', async () => {
    const first = (await get('/api/admin/model-prices', admin)).json();
    expect(first.models).toContainEqual({
      model: 'gpt-5-mini',
      input_per_million_usd: 0.25,
      output_per_million_usd: 2,
      priced: true,
    });
    const put = await t.req({
      method: 'PUT',
      url: '/api/admin/model-prices',
      token: admin.token,
      body: { models: [{ model: 'llama-3-local', input_per_million_usd: 0.1, output_per_million_usd: 0.2 }] },
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json().models).toContainEqual({
      model: 'llama-3-local',
      input_per_million_usd: 0.1,
      output_per_million_usd: 0.2,
      priced: true,
    });
    expect((await get('/api/admin/model-prices', ceo)).statusCode).toBe(403);
  });

  it('rejects a range that ends before it starts', async () => {
    expect((await get('/api/usage/summary?since=2026-11-10&until=2026-11-01', admin)).statusCode).toBe(422);
  });
});
