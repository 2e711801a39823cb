import { afterAll, beforeAll, expect, it } from 'vitest';
import { apiSuite, createTestApp, type TestApp, type TestUser } from '../../../test/helpers.ts';

type Detail = { loc: (string | number)[]; msg: string }[];

apiSuite('factory: crew tasks and flow steps name their agent and tool by id or name', () => {
  let t: TestApp;
  let ceo: TestUser;
  let other: TestUser;
  let analyst: { id: string; name: string };
  let privateOfOther: { id: string; name: string };
  let tool: { id: string; name: string };

  beforeAll(async () => {
    t = await createTestApp();
    ceo = await t.createUser('ceo');
    other = await t.createUser('ceo');
    const post = async (u: TestUser, url: string, body: unknown) => {
      const res = await t.req({ method: 'POST', url, token: u.token, body });
      expect(res.statusCode, res.body).toBe(201);
      return res.json();
    };
    analyst = await post(ceo, '/api/agents/', { name: 'Deal Analyst', role: 'Analyst', goal: 'Check deals' });
    privateOfOther = await post(other, '/api/agents/', { name: 'Hidden Agent', role: 'r', goal: 'g' });
    tool = await post(ceo, '/api/tools/', { name: 'Price Lookup' });
  });
  afterAll(() => t.close());

  const send = (url: string, body: unknown) => t.req({ method: 'POST', url, token: ceo.token, body });
  const crew = (tasks: unknown[]) => send('/api/crews/', { name: 'C', version: '1', tasks });
  const flow = (steps: unknown[]) => send('/api/flows/', { name: 'F', steps });
  const locs = (body: { detail: Detail }) => body.detail.map((d) => d.loc.join('.'));

  it('crew tasks accept agent (name or id) and agent_name as well as agent_id, and title for name', async () => {
    const res = await crew([
      { title: 'By name', description: 'one', agent: 'Deal Analyst' },
      { description: 'two', agent: analyst.id },
      { description: 'three', agent_name: 'Deal Analyst' },
      { description: 'four', agent_id: analyst.id, agent_name: 'Deal Analyst' },
    ]);
    expect(res.statusCode, res.body).toBe(201);
    const tasks = res.json().tasks as { name: string; agent_id: string; agent_name: string }[];
    expect(tasks.map((x) => x.agent_id)).toEqual([analyst.id, analyst.id, analyst.id, analyst.id]);
    expect(tasks[0]).toMatchObject({ name: 'By name', agent_name: 'Deal Analyst' });
    expect(res.json().agentIds).toEqual([analyst.id]);
  });

  it('flow steps accept agent and tool by name or id, and name for title', async () => {
    const res = await flow([
      { name: 'Look up', kind: 'tool', tool: 'Price Lookup' },
      { title: 'Judge', agent: 'Deal Analyst', tool: tool.id },
    ]);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().steps).toMatchObject([
      { title: 'Look up', tool_id: tool.id, tool: 'Price Lookup', agent_id: null },
      { title: 'Judge', agent_id: analyst.id, agent: 'Deal Analyst', tool_id: tool.id },
    ]);
  });

  it('an unknown name (or another user’s private agent) is a 422 naming the field', async () => {
    const a = await crew([{ description: 'x', agent_name: 'Nobody' }]);
    expect(a.statusCode).toBe(422);
    expect(locs(a.json())).toEqual(['body.tasks.0.agent_name']);
    expect(a.json().detail[0].msg).toContain('Nobody');

    const b = await crew([{ description: 'x', agent: privateOfOther.name }]);
    expect(b.statusCode).toBe(422);
    expect(locs(b.json())).toEqual(['body.tasks.0.agent']);

    const c = await flow([
      { title: 'x', agent: 'Deal Analyst' },
      { title: 'y', kind: 'tool', tool: 'No Such Tool' },
    ]);
    expect(c.statusCode).toBe(422);
    expect(locs(c.json())).toEqual(['body.steps.1.tool']);

    const d = await flow([{ title: 'x', agent: privateOfOther.id }]);
    expect(d.statusCode).toBe(422);
    expect(locs(d.json())).toEqual(['body.steps.0.agent']);
  });

  it('two fields naming different agents are refused; a step needs a title or a name', async () => {
    const res = await crew([{ description: 'x', agent_id: analyst.id, agent_name: 'Strategist Nobody' }]);
    expect(res.statusCode).toBe(422);
    const seeded = (await t.req({ method: 'GET', url: '/api/agents/', token: ceo.token })).json();
    const builtin = seeded.find((x: { isAutoGen: boolean }) => x.isAutoGen);
    const conflict = await crew([{ description: 'x', agent_id: analyst.id, agent_name: builtin.name }]);
    expect(conflict.statusCode).toBe(422);
    expect(locs(conflict.json())).toEqual(['body.tasks.0.agent_name']);
    expect(conflict.json().detail[0].msg).toBe('agent_id and agent_name name different agents');

    const untitled = await flow([{ agent: 'Deal Analyst' }]);
    expect(untitled.statusCode).toBe(422);
    expect(locs(untitled.json())).toEqual(['body.steps.0.title']);
  });
});
