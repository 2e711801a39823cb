import {
  AGENT_REQUIRED_FIELDS,
  CREW_REQUIRED_FIELDS,
  DEFAULT_FLOW_VERSION,
  TOOL_NAME_REQUIRED,
} from '@cc/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { apiSuite, createTestApp, type TestApp, type TestUser } from '../../../test/helpers.ts';
import { seedFactoryCatalogue } from '../../db/seed/factory-catalogue.ts';

interface Item {
  id: string;
  name: string;
  isAutoGen: boolean;
  is_public: boolean;
  can_edit: boolean;
  can_delete: boolean;
  [k: string]: unknown;
}

apiSuite('factory', () => {
  let t: TestApp;
  let ceo: TestUser;
  let admin: TestUser;
  let user: TestUser;
  let waitlisted: TestUser;
  beforeAll(async () => {
    t = await createTestApp({ RUN_WORKER_CONCURRENCY: '0' });
    ceo = await t.createUser('ceo');
    admin = await t.createUser('admin');
    user = await t.createUser('user');
    waitlisted = await t.createUser('waitlisted');
  });
  afterAll(() => t.close());

  const list = async (path: string, token: string) => {
    const res = await t.req({ method: 'GET', url: path, token });
    expect(res.statusCode).toBe(200);
    return res.json() as Item[];
  };

  it('seeds the built-in catalogue once, marked Auto-Generated, on every start', async () => {
    await seedFactoryCatalogue(t.ctx.db); // a second start changes nothing
    const agents = await list('/api/agents/', user.token);
    expect(agents.map((a) => a.name).sort()).toEqual(['Analyst', 'Researcher', 'Strategist', 'Writer']);
    expect(agents.every((a) => a.isAutoGen && !a.can_delete && !a.can_edit)).toBe(true);
    const tools = await list('/api/tools/', user.token);
    expect(tools.map((x) => x.function_name).sort()).toEqual([
      'draft_comms_message',
      'internal_search',
      'propose_task',
      'web_search',
      'workspace_snapshot',
    ]);
    const crews = await list('/api/crews/', user.token);
    expect(crews.map((c) => c.name).sort()).toEqual([
      'Market Research Brief',
      'Strategic Review',
      'Weekly Report',
    ]);
    const review = crews.find((c) => c.name === 'Strategic Review') as Item & {
      tasks: { agent_name: string }[];
    };
    expect(review.tasks.map((x) => x.agent_name)).toEqual(['Analyst', 'Strategist', 'Writer']);
    const flows = await list('/api/flows', user.token);
    // Built-ins show a display name, never a raw identifier.
    expect(flows.map((f) => f.name)).not.toContain('strategic_flow');
    const strategic = flows.find((f) => f.name === 'Strategic advice flow') as Item & {
      steps: { kind: string }[];
    };
    expect(strategic.steps.at(-1)?.kind).toBe('strategic_advice');
    expect(flows.some((f) => (f.steps as { kind: string }[]).some((s) => s.kind === 'wait_for_human'))).toBe(
      true,
    );
  });

  it('only ceo and admin create factory items; waitlisted users get 403 on reads too', async () => {
    const agent = { name: 'Scout', role: 'Scout', goal: 'Find leads' };
    expect(
      (await t.req({ method: 'POST', url: '/api/agents/', token: user.token, body: agent })).statusCode,
    ).toBe(403);
    expect(
      (
        await t.req({
          method: 'POST',
          url: '/api/crews/',
          token: user.token,
          body: { name: 'X', version: '1' },
        })
      ).statusCode,
    ).toBe(403);
    expect(
      (await t.req({ method: 'POST', url: '/api/tools/', token: user.token, body: { name: 'X' } }))
        .statusCode,
    ).toBe(403);
    expect(
      (
        await t.req({
          method: 'POST',
          url: '/api/flows/',
          token: user.token,
          body: { name: 'X', steps: [{ title: 'a', kind: 'wait_for_human' }] },
        })
      ).statusCode,
    ).toBe(403);
    expect((await t.req({ method: 'GET', url: '/api/crews/', token: waitlisted.token })).statusCode).toBe(
      403,
    );
    expect((await t.req({ method: 'GET', url: '/api/crews/' })).statusCode).toBe(401);
    const res = await t.req({ method: 'POST', url: '/api/agents/', token: admin.token, body: agent });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ name: 'Scout', isAutoGen: false, can_edit: true, can_delete: true });
  });

  it('answers the spec validation messages word for word', async () => {
    const detail = async (path: string, body: unknown) => {
      const res = await t.req({ method: 'POST', url: path, token: ceo.token, body });
      expect(res.statusCode).toBe(422);
      return JSON.stringify(res.json().detail);
    };
    expect(await detail('/api/agents/', { name: 'A', role: ' ', goal: 'g' })).toContain(
      AGENT_REQUIRED_FIELDS,
    );
    expect(await detail('/api/agents/', { name: 'A', role: 'r' })).toContain(AGENT_REQUIRED_FIELDS);
    expect(await detail('/api/crews/', { name: 'A', version: '' })).toContain(CREW_REQUIRED_FIELDS);
    expect(await detail('/api/crews/', { version: '1' })).toContain(CREW_REQUIRED_FIELDS);
    expect(await detail('/api/tools/', { name: '' })).toContain(TOOL_NAME_REQUIRED);
    expect(await detail('/api/tools/', { description: 'no name' })).toContain(TOOL_NAME_REQUIRED);
    expect(
      await detail('/api/agents/', { name: 'A', role: 'r', goal: 'g', user_level: 'admin' }),
    ).toBeTruthy();
  });

  it('creates a crew from agents (one task each, in order), an HTTP tool and a flow with a human step', async () => {
    const agents = await list('/api/agents/', ceo.token);
    const [a, b] = agents.filter((x) => x.isAutoGen);
    const crew = await t.req({
      method: 'POST',
      url: '/api/crews/',
      token: ceo.token,
      body: { name: 'Duo', description: 'Two agents', version: '0.1', agentIds: [a.id, b.id] },
    });
    expect(crew.statusCode).toBe(201);
    expect(crew.json()).toMatchObject({ agentIds: [a.id, b.id], version: '0.1', requires_input: false });
    expect(crew.json().tasks.map((x: { agent_id: string }) => x.agent_id)).toEqual([a.id, b.id]);

    const tool = await t.req({
      method: 'POST',
      url: '/api/tools/',
      token: ceo.token,
      body: { name: 'Quote API', description: 'Quotes', http: { url: 'https://quotes.example/api' } },
    });
    expect(tool.statusCode).toBe(201);
    expect(tool.json()).toMatchObject({
      kind: 'http',
      http: { url: 'https://quotes.example/api', method: 'POST' },
    });

    const flow = await t.req({
      method: 'POST',
      url: '/api/flows/',
      token: ceo.token,
      body: {
        name: 'Approve',
        steps: [
          { title: 'Draft', agent_id: a.id },
          { title: 'Approve?', kind: 'wait_for_human', prompt: 'OK?' },
        ],
      },
    });
    expect(flow.statusCode).toBe(201);
    expect(flow.json()).toMatchObject({ version: DEFAULT_FLOW_VERSION, isAutoGen: false });
    expect(flow.json().steps.map((s: { kind: string }) => s.kind)).toEqual(['agent', 'wait_for_human']);

    const unknown = await t.req({
      method: 'POST',
      url: '/api/crews/',
      token: ceo.token,
      body: { name: 'Bad', version: '1', agentIds: ['nope'] },
    });
    expect(unknown.statusCode).toBe(422);
  });

  it('input schema: declared fields, or none with requires_input (the screen then asks initial_goal)', async () => {
    const crews = await list('/api/crews/', user.token);
    const brief = crews.find((c) => c.name === 'Market Research Brief') as Item;
    const res = await t.req({ method: 'GET', url: `/api/crews/${brief.id}/input-schema`, token: user.token });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      requires_input: true,
      fields: [
        { name: 'market', label: 'Which market or segment?', required: true },
        { name: 'question', label: 'What do you want to know?', required: false },
      ],
    });
    const own = await t.req({
      method: 'POST',
      url: '/api/crews/',
      token: ceo.token,
      body: { name: 'Asks', version: '1', requires_input: true },
    });
    const schema = await t.req({
      method: 'GET',
      url: `/api/crews/${own.json().id}/input-schema`,
      token: ceo.token,
    });
    expect(schema.json()).toEqual({ requires_input: true, fields: [] });
    // Another user's private crew is invisible.
    expect(
      (await t.req({ method: 'GET', url: `/api/crews/${own.json().id}/input-schema`, token: user.token }))
        .statusCode,
    ).toBe(404);
  });

  it('visibility: own, public and auto-generated; edits by the owner only; deletes never for built-in or public', async () => {
    const mine = (
      await t.req({
        method: 'POST',
        url: '/api/crews/',
        token: ceo.token,
        body: { name: 'Private', version: '1' },
      })
    ).json() as Item;
    const shared = (
      await t.req({
        method: 'POST',
        url: '/api/crews/',
        // Only a platform administrator makes items public (issue 19 section 1).
        token: admin.token,
        body: { name: 'Shared', version: '1', is_public: true },
      })
    ).json() as Item;
    const seen = (await list('/api/crews/', admin.token)).map((c) => c.name);
    expect(seen).toContain('Shared');
    expect(seen).not.toContain('Private');
    expect((await list('/api/crews/', ceo.token)).map((c) => c.name)).toContain('Shared');
    expect(
      (await t.req({ method: 'GET', url: `/api/crews/${mine.id}`, token: admin.token })).statusCode,
    ).toBe(404);
    expect(
      (await t.req({ method: 'DELETE', url: `/api/crews/${mine.id}`, token: admin.token })).statusCode,
    ).toBe(404);
    expect(
      (
        await t.req({
          method: 'PUT',
          url: `/api/crews/${shared.id}`,
          token: ceo.token,
          body: { name: 'Mine', version: '2' },
        })
      ).statusCode,
    ).toBe(403);
    const edited = await t.req({
      method: 'PUT',
      url: `/api/crews/${mine.id}`,
      token: ceo.token,
      body: { name: 'Renamed', version: '2' },
    });
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toMatchObject({ name: 'Renamed', version: '2' });

    // Public and auto-generated items cannot be deleted (403), even by their owner or an admin.
    expect(shared.can_delete).toBe(false);
    expect(
      (await t.req({ method: 'DELETE', url: `/api/crews/${shared.id}`, token: admin.token })).statusCode,
    ).toBe(403);
    const builtin = (await list('/api/crews/', admin.token)).find((c) => c.isAutoGen) as Item;
    expect(
      (await t.req({ method: 'DELETE', url: `/api/crews/${builtin.id}`, token: admin.token })).statusCode,
    ).toBe(403);
    const builtinAgent = (await list('/api/agents/', admin.token)).find((c) => c.isAutoGen) as Item;
    expect(
      (await t.req({ method: 'DELETE', url: `/api/agents/${builtinAgent.id}`, token: admin.token }))
        .statusCode,
    ).toBe(403);
    expect(
      (
        await t.req({
          method: 'PUT',
          url: `/api/agents/${builtinAgent.id}`,
          token: admin.token,
          body: { name: 'x', role: 'y', goal: 'z' },
        })
      ).statusCode,
    ).toBe(403);

    expect(
      (await t.req({ method: 'DELETE', url: `/api/crews/${mine.id}`, token: ceo.token })).statusCode,
    ).toBe(204);
    expect((await t.req({ method: 'GET', url: `/api/crews/${mine.id}`, token: ceo.token })).statusCode).toBe(
      404,
    );
  });
});
