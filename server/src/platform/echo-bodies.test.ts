import { randomUUID } from 'node:crypto';
import {
  readOnlyKeys,
  ZAdminUpdateUserRequest,
  ZAdvice,
  ZAdviceFeedbackRequest,
  ZAgent,
  ZAssignTaskRequest,
  ZBudget,
  ZBudgetRequest,
  ZCommsSuggestion,
  ZCommsThread,
  ZConnection,
  ZContact,
  ZConversation,
  ZCreateAgentRequest,
  ZCreateCrewRequest,
  ZCreateFlowRequest,
  ZCreateToolRequest,
  ZCrew,
  ZFileItem,
  ZFlow,
  ZGoal,
  ZInteractionRequest,
  ZJournal,
  ZModelPrices,
  ZModelPriceTable,
  ZPrimaryOrganization,
  ZPrimaryOrganizationRequest,
  ZRunThreshold,
  ZRunThresholdRequest,
  ZOrganization,
  ZOrganizationName,
  ZOrgMember,
  ZPastInteraction,
  ZPutSuggestionRequest,
  ZRenameThreadRequest,
  ZTask,
  ZTool,
  ZUpdateAdviceRequest,
  ZUpdateConnectionRequest,
  ZUpdateContactRequest,
  ZUpdateConversationRequest,
  ZUpdateFileRequest,
  ZUpdateGoalRequest,
  ZUpdateJournalRequest,
  ZUpdateMeRequest,
  ZUpdateOrgUserRequest,
  ZUpdateTaskRequest,
  ZUser,
  ZOutboundAllowlist,
  ZOutboundAllowlistRequest,
} from '@cc/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { z } from 'zod';
import { apiSuite, createTestApp, type TestApp, type TestUser } from '../../test/helpers.ts';

type Obj = Record<string, unknown>;

/** Who and what a record is: never changed by a body, whatever it says. */
const IDENTITY = ['id', 'user_id', 'created_by', 'created_at', 'thread_id'];

/** One PUT/PATCH: a record as the server returned it, the URL to send it back to, one change. */
interface EchoCase {
  body: z.core.$ZodType;
  entity: z.core.$ZodType;
  /** The PUT writes a new record in place of the old one (the comms suggestion): a new id is right. */
  replaces?: boolean;
  /** Why this write takes no If-Match (its record has no version a client holds). */
  unversioned?: string;
  make(): Promise<{
    url: string;
    token: string;
    record: Obj;
    change: [string, unknown];
    /** The record as stored now (read through the API). */
    reread(): Promise<Obj>;
  }>;
}

/** A different value of the same JSON type, so a server that applied it would show it. */
function tamper(v: unknown): unknown {
  if (typeof v === 'string') return `tampered-${randomUUID().slice(0, 8)}`;
  if (typeof v === 'boolean') return !v;
  if (typeof v === 'number') return v + 7;
  if (v === null) return `tampered-${randomUUID().slice(0, 8)}`;
  return v;
}

apiSuite('round-trip bodies: every PUT/PATCH takes back what the server returned', () => {
  let t: TestApp;
  let ceo: TestUser;
  let colleague: TestUser;
  let admin: TestUser;
  let org: string;

  beforeAll(async () => {
    t = await createTestApp();
    ceo = await t.createUser('ceo');
    colleague = await t.createUser('user');
    admin = await t.createUser('admin');
    org = await t.createOrg(ceo, 'Echo Co');
    await t.addToOrg(ceo, org, colleague, 'user');
  });
  afterAll(() => t.close());

  const call = async (method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, body?: unknown, u = ceo) => {
    const res = await t.req({ method, url, token: u.token, body });
    expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
    return res.json();
  };
  const get =
    (url: string, u = ceo) =>
    () =>
      call('GET', url, undefined, u);
  const findIn =
    (url: string, pick: (x: Obj) => boolean, u = ceo) =>
    async () =>
      ((await call('GET', url, undefined, u)) as Obj[]).find(pick) as Obj;

  const cases: Record<string, EchoCase> = {
    'PUT /api/strategic-goals/{id}': {
      body: ZUpdateGoalRequest,
      entity: ZGoal,
      async make() {
        const g = await call('POST', '/api/strategic-goals', {
          title: 'Grow',
          due_date: '2027-01-31',
          kpis: [{ name: 'ARR', current_value: 1, target_value: 10 }],
        });
        return {
          url: `/api/strategic-goals/${g.id}`,
          token: ceo.token,
          record: g,
          change: ['title', 'Grow more'],
          reread: get(`/api/strategic-goals/${g.id}`),
        };
      },
    },
    'PATCH /api/users/me': {
      body: ZUpdateMeRequest,
      entity: ZUser,
      async make() {
        const me = await call('GET', '/api/users/me');
        return {
          url: '/api/users/me',
          token: ceo.token,
          record: me,
          change: ['first_name', 'Echoed'],
          reread: get('/api/users/me'),
        };
      },
    },
    'PATCH /api/users/{id}': {
      body: ZAdminUpdateUserRequest,
      entity: ZUser,
      async make() {
        const u = await t.createUser('user');
        const pick = (x: Obj) => x.id === u.id;
        const record = await findIn('/api/users/', pick, admin)();
        return {
          url: `/api/users/${u.id}`,
          token: admin.token,
          record,
          change: ['first_name', 'Renamed'],
          reread: findIn('/api/users/', pick, admin),
        };
      },
    },
    'PUT /api/tasks/{id}': {
      body: ZUpdateTaskRequest,
      entity: ZTask,
      async make() {
        const task = await call('POST', '/api/tasks', { title: 'Call the bank', shared_org_ids: [org] });
        return {
          url: `/api/tasks/${task.id}`,
          token: ceo.token,
          record: task,
          change: ['title', 'Call the bank today'],
          reread: get(`/api/tasks/${task.id}`),
        };
      },
    },
    'PUT /api/tasks/{id}/assign': {
      body: ZAssignTaskRequest,
      entity: ZTask,
      async make() {
        const task = await call('POST', '/api/tasks', { title: 'Assign me', shared_org_ids: [org] });
        return {
          url: `/api/tasks/${task.id}/assign`,
          token: ceo.token,
          record: task,
          change: ['assigned_to_user_id', colleague.id],
          reread: get(`/api/tasks/${task.id}`),
        };
      },
    },
    'PUT /api/journals/{id}': {
      body: ZUpdateJournalRequest,
      entity: ZJournal,
      async make() {
        const j = await call('POST', '/api/journals', { content: 'Day one' });
        return {
          url: `/api/journals/${j.id}`,
          token: ceo.token,
          record: j,
          change: ['content', 'Day one, edited'],
          reread: get(`/api/journals/${j.id}`),
        };
      },
    },
    'PATCH /api/connections/{id}': {
      body: ZUpdateConnectionRequest,
      entity: ZConnection,
      unversioned: "a connection's status moves with every sync: a rename needs no guard",
      async make() {
        // A loopback ICS address the outbound policy refuses: its sync never leaves the machine.
        const c = await call('POST', '/api/connections', {
          kind: 'ics',
          name: 'Cal',
          url: 'http://127.0.0.1:9/c.ics',
        });
        return {
          url: `/api/connections/${c.id}`,
          token: ceo.token,
          record: c,
          change: ['name', 'Team calendar'],
          reread: findIn('/api/connections/', (x) => x.id === c.id),
        };
      },
    },
    'PUT /api/conversations/{id}': {
      body: ZUpdateConversationRequest,
      entity: ZConversation,
      async make() {
        const c = await call('POST', '/api/conversations', { name: 'Plans' });
        return {
          url: `/api/conversations/${c.id}`,
          token: ceo.token,
          record: c,
          change: ['name', 'Better plans'],
          reread: get(`/api/conversations/${c.id}`),
        };
      },
    },
    'PATCH /api/files/{id}': {
      body: ZUpdateFileRequest,
      entity: ZFileItem,
      async make() {
        const boundary = `----echo${randomUUID().replace(/-/g, '')}`;
        const payload =
          `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="a.txt"\r\n` +
          `Content-Type: text/plain\r\n\r\nhello\r\n--${boundary}--\r\n`;
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/files',
          headers: {
            authorization: `Bearer ${ceo.token}`,
            'content-type': `multipart/form-data; boundary=${boundary}`,
          },
          payload,
        });
        expect(res.statusCode, res.body).toBe(201);
        const f = res.json()[0];
        return {
          url: `/api/files/${f.id}`,
          token: ceo.token,
          record: f,
          change: ['name', 'b.txt'],
          reread: get(`/api/files/${f.id}`),
        };
      },
    },
    'PATCH /api/contacts/{id}': {
      body: ZUpdateContactRequest,
      entity: ZContact,
      async make() {
        const c = await call('POST', '/api/contacts', {
          name: 'Ada',
          emails: ['ada@x.example'],
          shared_org_ids: [org],
        });
        return {
          url: `/api/contacts/${c.id}`,
          token: ceo.token,
          record: c,
          change: ['role', 'Investor'],
          reread: get(`/api/contacts/${c.id}`),
        };
      },
    },
    'PUT /api/contacts/{id}/past-interactions/{interactionId}': {
      body: ZInteractionRequest,
      entity: ZPastInteraction,
      async make() {
        const c = await call('POST', '/api/contacts', { name: 'Bob' });
        const withOne = await call('POST', `/api/contacts/${c.id}/past-interactions`, {
          date: '2026-11-01',
          summary: 'Lunch',
        });
        const record = withOne.past_interactions[0];
        const reread = async () => (await call('GET', `/api/contacts/${c.id}`)).past_interactions[0];
        return {
          url: `/api/contacts/${c.id}/past-interactions/${record.id}`,
          token: ceo.token,
          record,
          change: ['summary', 'Long lunch'],
          reread,
        };
      },
    },
    'PUT /api/strategic-advice/{id}': {
      body: ZUpdateAdviceRequest,
      entity: ZAdvice,
      async make() {
        const a = await call('POST', '/api/strategic-advice', { content: 'Focus', organization_id: org });
        return {
          url: `/api/strategic-advice/${a.id}`,
          token: ceo.token,
          record: a,
          change: ['content', 'Focus harder'],
          reread: get(`/api/strategic-advice/${a.id}`),
        };
      },
    },
    'PATCH /api/strategic-advice/{id}/feedback': {
      body: ZAdviceFeedbackRequest,
      entity: ZAdvice,
      async make() {
        const a = await call('POST', '/api/strategic-advice', { content: 'Hire' });
        return {
          url: `/api/strategic-advice/${a.id}/feedback`,
          token: ceo.token,
          record: a,
          change: ['feedback', 'Agreed'],
          reread: get(`/api/strategic-advice/${a.id}`),
        };
      },
    },
    'PATCH /api/organizations/{id}': {
      body: ZOrganizationName,
      entity: ZOrganization,
      async make() {
        const o = await call('POST', '/api/organizations', { name: 'Renamable' });
        const pick = (x: Obj) => x.id === o.id;
        return {
          url: `/api/organizations/${o.id}`,
          token: ceo.token,
          record: o,
          change: ['name', 'Renamed Co'],
          reread: findIn('/api/organizations', pick),
        };
      },
    },
    'PATCH /api/organizations/{id}/users/{userId}': {
      body: ZUpdateOrgUserRequest,
      entity: ZOrgMember,
      async make() {
        const o = await t.createOrg(ceo, 'Members Co');
        const m = await t.createUser('user');
        await t.addToOrg(ceo, o, m, 'user');
        const pick = (x: Obj) => x.user_id === m.id;
        const record = await findIn(`/api/organizations/${o}/users`, pick)();
        return {
          url: `/api/organizations/${o}/users/${m.id}`,
          token: ceo.token,
          record,
          change: ['org_access_level', 'manager'],
          reread: findIn(`/api/organizations/${o}/users`, pick),
        };
      },
    },
    'PATCH /api/comms/threads/{id}': {
      body: ZRenameThreadRequest,
      entity: ZCommsThread,
      unversioned: "a thread's updated_at moves with every message: a rename needs no guard",
      async make() {
        const th = await call('POST', '/api/comms/threads', { participant_ids: [colleague.id] });
        const pick = (x: Obj) => x.id === th.id;
        return {
          url: `/api/comms/threads/${th.id}`,
          token: ceo.token,
          record: th,
          change: ['name', 'Deal room'],
          reread: findIn('/api/comms/threads', pick),
        };
      },
    },
    'PUT /api/comms/threads/{id}/suggestion': {
      body: ZPutSuggestionRequest,
      entity: ZCommsSuggestion,
      replaces: true,
      unversioned: 'a suggestion is replaced, not edited',
      async make() {
        const th = await call('POST', '/api/comms/threads', { participant_ids: [colleague.id] });
        const url = `/api/comms/threads/${th.id}/suggestion`;
        const s = await call('PUT', url, { text: 'Draft' });
        const reread = async () => (await call('GET', url)).suggestion;
        return { url, token: ceo.token, record: s, change: ['text', 'Better draft'], reread };
      },
    },
    'PUT /api/agents/{id}': {
      body: ZCreateAgentRequest,
      entity: ZAgent,
      async make() {
        const a = await call('POST', '/api/agents', { name: 'Analyst', role: 'Analyst', goal: 'Analyse' });
        return {
          url: `/api/agents/${a.id}`,
          token: ceo.token,
          record: a,
          change: ['name', 'Senior analyst'],
          reread: get(`/api/agents/${a.id}`),
        };
      },
    },
    'PUT /api/tools/{id}': {
      body: ZCreateToolRequest,
      entity: ZTool,
      async make() {
        const tool = await call('POST', '/api/tools', { name: 'Lookup' });
        return {
          url: `/api/tools/${tool.id}`,
          token: ceo.token,
          record: tool,
          change: ['name', 'Lookup v2'],
          reread: get(`/api/tools/${tool.id}`),
        };
      },
    },
    'PUT /api/crews/{id}': {
      body: ZCreateCrewRequest,
      entity: ZCrew,
      async make() {
        const a = await call('POST', '/api/agents', { name: 'Writer', role: 'Writer', goal: 'Write' });
        const crew = await call('POST', '/api/crews', { name: 'Desk', version: '1.0', agentIds: [a.id] });
        return {
          url: `/api/crews/${crew.id}`,
          token: ceo.token,
          record: crew,
          change: ['name', 'News desk'],
          reread: get(`/api/crews/${crew.id}`),
        };
      },
    },
    'PUT /api/flows/{id}': {
      body: ZCreateFlowRequest,
      entity: ZFlow,
      async make() {
        const a = await call('POST', '/api/agents', { name: 'Planner', role: 'Planner', goal: 'Plan' });
        const flow = await call('POST', '/api/flows', {
          name: 'Plan',
          steps: [{ title: 'Draft', agent_id: a.id }],
        });
        return {
          url: `/api/flows/${flow.id}`,
          token: ceo.token,
          record: flow,
          change: ['name', 'Plan B'],
          reread: get(`/api/flows/${flow.id}`),
        };
      },
    },
  };

  // Spend governance (issue 21): a budget and the price table are settings without a version.
  const budgetCase = (path: () => string): EchoCase => ({
    body: ZBudgetRequest,
    entity: ZBudget,
    unversioned: 'a budget is a setting, not a versioned record',
    async make() {
      const url = path();
      const record = await call('PUT', url, { monthly_usd: 40 });
      return { url, token: ceo.token, record, change: ['monthly_usd', 75], reread: get(url) };
    },
  });
  cases['PUT /api/organizations/{id}/budget'] = budgetCase(() => `/api/organizations/${org}/budget`);
  cases['PUT /api/organizations/{id}/users/{userId}/budget'] = budgetCase(
    () => `/api/organizations/${org}/users/${colleague.id}/budget`,
  );
  cases['PUT /api/users/me/run-threshold'] = {
    body: ZRunThresholdRequest,
    entity: ZRunThreshold,
    unversioned: 'a personal setting, not a versioned record',
    async make() {
      const url = '/api/users/me/run-threshold';
      const record = await call('PUT', url, { run_confirm_usd: 2 });
      return {
        url,
        token: ceo.token,
        record,
        change: ['run_confirm_usd', 3],
        reread: get('/api/users/me/usage'),
      };
    },
  };
  cases['PUT /api/admin/model-prices'] = {
    body: ZModelPrices,
    entity: ZModelPriceTable,
    unversioned: 'the price table is a setting, not a versioned record',
    async make() {
      const url = '/api/admin/model-prices';
      const record = await call('GET', url, undefined, admin);
      const models = (record.models as Obj[]).map((m) =>
        m.model === 'gpt-5' ? { ...m, input_per_million_usd: 3 } : m,
      );
      return { url, token: admin.token, record, change: ['models', models], reread: get(url, admin) };
    },
  };

  cases['PUT /api/users/me/primary-organization'] = {
    body: ZPrimaryOrganizationRequest,
    entity: ZPrimaryOrganization,
    unversioned: 'a personal setting, not a versioned record',
    async make() {
      const second = await t.createOrg(ceo, 'Echo Two');
      await t.addToOrg(ceo, second, colleague, 'user');
      const url = '/api/users/me/primary-organization';
      const record = await call('PUT', url, { organization_id: org }, colleague);
      return {
        url,
        token: colleague.token,
        record,
        change: ['organization_id', second],
        reread: get('/api/users/me', colleague),
      };
    },
  };

  cases['PUT /api/admin/outbound-allowlist'] = {
    body: ZOutboundAllowlistRequest,
    entity: ZOutboundAllowlist,
    unversioned: 'the allow-list is a setting, not a versioned record',
    async make() {
      const url = '/api/admin/outbound-allowlist';
      const first = {
        entries: [{ method: 'GET', destination: 'https://api.example.com/v1/search', note: 'read-only' }],
      };
      const record = await call('PUT', url, first, admin);
      // The list comes back in destination order: the new entry sorts first.
      const entries = [
        { method: 'GET', destination: 'https://api.example.com/v1/lookup', note: null },
        ...(record.entries as Obj[]),
      ];
      const reread = async () => {
        const r = await get(url, admin)();
        return { entries: (r.entries as Obj[]).map(({ created_at: _c, ...e }) => e) };
      };
      return {
        url,
        token: admin.token,
        record,
        change: ['entries', entries.map(({ created_at: _c, ...e }) => e)],
        reread,
      };
    },
  };

  /**
   * Writes whose answer cannot be sent back, each with why. Super Admin → Models answers with what
   * each key's state is (set, last four characters), never the key, and its PUT takes keys: a form
   * shows the state and sends only what the person typed (decisions: "Models from the screen").
   */
  const NOT_ROUND_TRIPPED: Record<string, string> = {
    'PUT /api/admin/model-providers': 'keys are write-only: the answer carries their state, not the keys',
  };

  it('has a case for every PUT and PATCH operation of the API', async () => {
    const doc = (await t.req({ method: 'GET', url: '/api/openapi.json' })).json();
    const ops: string[] = [];
    for (const [p, item] of Object.entries(doc.paths as Record<string, Obj>)) {
      for (const m of ['put', 'patch']) if (item[m]) ops.push(`${m.toUpperCase()} ${p.replace(/\/$/, '')}`);
    }
    expect(ops.length).toBeGreaterThan(15);
    expect([...new Set(ops)].filter((op) => !cases[op] && !NOT_ROUND_TRIPPED[op])).toEqual([]);
  });

  for (const [op, c] of Object.entries(cases)) {
    it(`${op}: the returned object plus a change → 200, the change applied, server-owned fields untouched; a stale If-Match → 412`, async () => {
      const { url, token, record, change, reread } = await c.make();
      const method = op.split(' ')[0] as 'PUT' | 'PATCH';
      const owned = readOnlyKeys(c.body, c.entity).filter((k) => k in record);
      if ('user_id' in record && !owned.includes('user_id')) owned.push('user_id'); // accepted and ignored
      const sent: Obj = { ...record, [change[0]]: change[1] };
      for (const k of owned) sent[k] = tamper(record[k]);

      const res = await t.req({ method, url, token: token, body: sent });
      expect(res.statusCode, res.body).toBe(200);
      const after = await reread();
      expect(after[change[0]]).toEqual(change[1]);
      for (const k of owned) {
        // A tampered value is unique: seeing it back means the server applied it.
        if (typeof sent[k] === 'string') expect(after[k], `${k} was applied`).not.toEqual(sent[k]);
      }
      for (const k of IDENTITY.filter(
        (k) => k in record && !(c.replaces && (k === 'id' || k === 'created_at')),
      )) {
        expect(after[k], `${k} must not change`).toEqual(record[k]);
      }

      if (!c.unversioned) {
        // The record as read before the change is stale now: the same body with its version is refused.
        const stale = await t.app.inject({
          method,
          url,
          headers: { authorization: `Bearer ${token}`, 'if-match': `"${record.updated_at}"` },
          payload: sent,
        });
        expect(stale.statusCode, `${op} with a stale If-Match: ${stale.body}`).toBe(412);
      }

      const unknown = await t.req({ method, url, token, body: { ...record, no_such_field: 1 } });
      expect(unknown.statusCode, unknown.body).toBe(422);
      expect(JSON.stringify(unknown.json().detail)).toContain('no_such_field');
    });
  }
});
