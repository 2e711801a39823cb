import { EMPTY_ID_MESSAGE } from '@cc/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { apiSuite, createTestApp, type TestApp, type TestUser } from '../../test/helpers.ts';

/**
 * Issue 46 row 16: `""` for an optional id was a foreign-key 500, and a model priced twice in one
 * request a 500 on PostgreSQL. Both are 422 with a detail, on both engines, and nothing is written.
 * (The bad-input sweep tries "" on every `*_id` field and duplicated entries on every operation.)
 */
apiSuite('empty ids and duplicate entries are 422', () => {
  let t: TestApp;
  let ceo: TestUser;
  let admin: TestUser;

  beforeAll(async () => {
    t = await createTestApp();
    ceo = await t.createUser('ceo');
    admin = await t.createUser('admin');
  });
  afterAll(() => t.close());

  const fieldProblem = (body: { detail: { loc: (string | number)[]; msg: string }[] }) =>
    body.detail.map((d) => ({ loc: d.loc.join('.'), msg: d.msg }));

  it('POST /api/strategic-advice {"organization_id":""} → 422, no advice stored', async () => {
    const res = await t.req({
      method: 'POST',
      url: '/api/strategic-advice/',
      token: ceo.token,
      body: { content: 'Expand north', organization_id: '' },
    });
    expect(res.statusCode, res.body).toBe(422);
    expect(fieldProblem(res.json())).toContainEqual({ loc: 'body.organization_id', msg: EMPTY_ID_MESSAGE });
    const stored = await t.ctx.db.selectFrom('strategic_advice').select('id').execute();
    expect(stored).toHaveLength(0);
  });

  it('"" is refused on other optional ids too (goal, task, query filter)', async () => {
    const goal = await t.req({
      method: 'POST',
      url: '/api/strategic-goals/',
      token: ceo.token,
      body: { title: 'Grow', due_date: '2027-01-31', organization_id: '' },
    });
    expect(goal.statusCode, goal.body).toBe(422);
    const task = await t.req({
      method: 'POST',
      url: '/api/tasks/',
      token: ceo.token,
      body: { title: 'Call', goal_id: '', assigned_to_user_id: '' },
    });
    expect(task.statusCode, task.body).toBe(422);
    expect(fieldProblem(task.json()).map((p) => p.loc)).toEqual(
      expect.arrayContaining(['body.goal_id', 'body.assigned_to_user_id']),
    );
    const list = await t.req({
      method: 'GET',
      url: '/api/strategic-goals/?organization_id=',
      token: ceo.token,
    });
    expect(list.statusCode, list.body).toBe(422);
    // null still says "none".
    const none = await t.req({
      method: 'POST',
      url: '/api/strategic-advice/',
      token: ceo.token,
      body: { content: 'Personal advice', organization_id: null },
    });
    expect(none.statusCode, none.body).toBe(201);
  });

  it('PUT /api/admin/model-prices with a model twice → 422, prices unchanged', async () => {
    const put = (models: unknown[]) =>
      t.req({ method: 'PUT', url: '/api/admin/model-prices', token: admin.token, body: { models } });
    const first = await put([{ model: 'gpt-5-mini', input_per_million_usd: 1, output_per_million_usd: 2 }]);
    expect(first.statusCode, first.body).toBe(200);
    const twice = await put([
      { model: 'gpt-5-mini', input_per_million_usd: 3, output_per_million_usd: 4 },
      { model: 'other-model', input_per_million_usd: 1, output_per_million_usd: 1 },
      { model: ' gpt-5-mini ', input_per_million_usd: 5, output_per_million_usd: 6 },
    ]);
    expect(twice.statusCode, twice.body).toBe(422);
    expect(fieldProblem(twice.json())).toContainEqual({
      loc: 'body.models.2.model',
      msg: 'gpt-5-mini is listed twice.',
    });
    const rows = await t.ctx.db
      .selectFrom('model_prices')
      .select(['model', 'input_micros_per_million'])
      .where('model', 'in', ['gpt-5-mini', 'other-model'])
      .execute();
    expect(rows.map((r) => [r.model, Number(r.input_micros_per_million)])).toEqual([
      ['gpt-5-mini', 1_000_000],
    ]);
  });
});
