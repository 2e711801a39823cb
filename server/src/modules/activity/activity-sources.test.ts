import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiSuite, createTestApp, PASSWORD, type TestApp, type TestUser } from '../../../test/helpers.ts';
import { builtinAgentIds, startRun, startToolServer, waitForStatus } from '../runs/runs-test-kit.ts';
import { rowsOf } from './activity-test-kit.ts';

/**
 * Every source of section 3 writes exactly one entry (issue 19): security events, and the writes made
 * by AI, agents and runs. Each test counts the rows of its action before and after the one call.
 */
apiSuite('activity ledger: one entry per source', () => {
  let t: TestApp;
  let admin: TestUser;
  let ceo: TestUser;
  let member: TestUser;
  let org: string;
  let tools: Awaited<ReturnType<typeof startToolServer>>;
  let search: http.Server;
  beforeAll(async () => {
    tools = await startToolServer();
    search = http.createServer((_req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ results: [{ title: 'Heron', url: 'https://example.com/h', content: 'x' }] }));
    });
    await new Promise<void>((r) => search.listen(0, '127.0.0.1', r));
    t = await createTestApp({
      AI_HTTP_ALLOWLIST: '127.0.0.1',
      RUN_POLL_MS: '100',
      LOGIN_MAX_FAILURES: '3',
      SEARCH_PROVIDER: 'searxng',
      SEARCH_URL: `http://127.0.0.1:${(search.address() as AddressInfo).port}`,
    });
    admin = await t.createUser('admin');
    ceo = await t.createUser('ceo');
    member = await t.createUser('user');
    org = await t.createOrg(ceo, 'Ledger Co');
    await t.addToOrg(ceo, org, member, 'user');
  });
  afterAll(async () => {
    await t.close();
    await tools.close();
    search.closeAllConnections();
    await new Promise<void>((r) => search.close(() => r()));
  });

  /** Runs `fn` and returns the entries of `action` it added: the test then expects exactly one. */
  async function added(action: string, fn: () => Promise<unknown>) {
    const before = (await rowsOf(t, action)).length;
    await fn();
    return (await rowsOf(t, action)).slice(before);
  }
  const one = async (action: string, fn: () => Promise<unknown>) => {
    const rows = await added(action, fn);
    expect(rows, `${action}: ${JSON.stringify(rows)}`).toHaveLength(1);
    return rows[0];
  };
  const signIn = (email: string, password: string) =>
    t.req({ method: 'POST', url: '/api/auth/token', form: { username: email, password } });

  describe('security events', () => {
    it('sign-in (via api, or ui from the web app)', async () => {
      const row = await one('auth.sign_in', async () =>
        expect((await signIn(member.email, PASSWORD)).statusCode).toBe(200),
      );
      expect(row).toMatchObject({ actor_user_id: member.id, via: 'api', entity_id: member.id, undoable: 0 });
      const fromWeb = await one('auth.sign_in', () =>
        t.app.inject({
          method: 'POST',
          url: '/api/auth/token',
          headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-cc-client': 'web' },
          payload: new URLSearchParams({ username: member.email, password: PASSWORD }).toString(),
        }),
      );
      expect(fromWeb.via).toBe('ui');
    });

    it('failed sign-in, known account or not, and the lockout once', async () => {
      const victim = await t.createUser('user');
      const failed = await one('auth.sign_in_failed', async () =>
        expect((await signIn(victim.email, 'wrong-password')).statusCode).toBe(401),
      );
      expect(failed).toMatchObject({ actor_user_id: victim.id, entity_id: victim.id });
      expect(failed.summary).toContain(victim.email);
      expect(failed.summary + (failed.after ?? '')).not.toContain('wrong-password');
      const unknown = await one('auth.sign_in_failed', () => signIn('nobody@test.example', 'x'));
      expect(unknown.actor_user_id).toBeNull();

      await signIn(victim.email, 'wrong-again');
      const lock = await one('auth.lockout', async () =>
        expect((await signIn(victim.email, 'third-wrong')).statusCode).toBe(401),
      );
      expect(lock).toMatchObject({ actor_user_id: victim.id, entity_id: victim.id });
      // Refused while locked: no more lockout entries.
      expect(await added('auth.lockout', () => signIn(victim.email, PASSWORD))).toHaveLength(0);
    });

    it('logout', async () => {
      const token = await t.login(member.email);
      const row = await one('auth.sign_out', async () =>
        expect((await t.req({ method: 'POST', url: '/api/auth/logout', token })).statusCode).toBe(204),
      );
      expect(row.actor_user_id).toBe(member.id);
    });

    it('password change, never with the password', async () => {
      const u = await t.createUser('user');
      const row = await one('user.password_changed', async () => {
        const res = await t.req({
          method: 'PATCH',
          url: '/api/users/me',
          token: u.token,
          body: { password: 'a-new-password-42', current_password: PASSWORD },
        });
        expect(res.statusCode, res.body).toBe(200);
      });
      expect(row).toMatchObject({ actor_user_id: u.id, entity_id: u.id });
      expect(JSON.stringify(row)).not.toContain('a-new-password-42');
      expect(JSON.stringify(row)).not.toContain(PASSWORD);
    });

    it('user created (sign-up and by an admin)', async () => {
      const signup = await one('user.created', async () => {
        const res = await t.req({
          method: 'POST',
          url: '/api/users/register',
          body: {
            email: 'newbie@test.example',
            password: 'a-password-123',
            first_name: 'New',
            last_name: 'Comer',
          },
        });
        expect(res.statusCode, res.body).toBe(201);
      });
      expect(signup.after).toBe(JSON.stringify({ email: 'newbie@test.example', user_level: 'waitlisted' }));
      const byAdmin = await one('user.created', async () => {
        const res = await t.req({
          method: 'POST',
          url: '/api/users/',
          token: admin.token,
          body: { email: 'made@test.example', password: 'a-password-123', user_level: 'user' },
        });
        expect(res.statusCode, res.body).toBe(201);
      });
      expect(byAdmin.actor_user_id).toBe(admin.id);
      expect(byAdmin.after).not.toContain('a-password-123');
    });

    it('level changed, with before and after', async () => {
      const u = await t.createUser('waitlisted');
      const row = await one('user.level_changed', async () => {
        const res = await t.req({
          method: 'PATCH',
          url: `/api/users/${u.id}`,
          token: admin.token,
          body: { user_level: 'user' },
        });
        expect(res.statusCode, res.body).toBe(200);
      });
      expect(row).toMatchObject({
        actor_user_id: admin.id,
        entity_id: u.id,
        before: JSON.stringify({ user_level: 'waitlisted' }),
        after: JSON.stringify({ user_level: 'user' }),
      });
    });

    it('user deleted', async () => {
      const u = await t.createUser('user');
      const row = await one('user.deleted', async () =>
        expect(
          (await t.req({ method: 'DELETE', url: `/api/users/${u.id}`, token: admin.token })).statusCode,
        ).toBe(204),
      );
      expect(row).toMatchObject({ actor_user_id: admin.id, entity_id: u.id });
      expect(row.before).toContain(u.email);
    });

    it('organization created and deleted (memberships with it)', async () => {
      let id = '';
      const created = await one('organization.created', async () => {
        const res = await t.req({
          method: 'POST',
          url: '/api/organizations',
          token: ceo.token,
          body: { name: 'Short-lived' },
        });
        expect(res.statusCode, res.body).toBe(201);
        id = res.json().id;
      });
      expect(created).toMatchObject({ actor_user_id: ceo.id, entity_id: id });
      const deleted = await one('organization.deleted', async () => {
        const res = await t.req({ method: 'DELETE', url: `/api/organizations/${id}`, token: ceo.token });
        expect(res.statusCode, res.body).toBe(204);
      });
      expect(deleted.before).toBe(JSON.stringify({ name: 'Short-lived' }));
    });

    it('invitation sent, accepted and declined; membership level changed and removed', async () => {
      const joiner = await t.createUser('user');
      const decliner = await t.createUser('user');
      const invite = (u: TestUser) =>
        t.req({
          method: 'POST',
          url: `/api/organizations/${org}/users`,
          token: ceo.token,
          body: { email: u.email, org_access_level: 'user' },
        });
      const sent = await one('invitation.created', async () =>
        expect((await invite(joiner)).statusCode).toBe(201),
      );
      expect(sent.actor_user_id).toBe(ceo.id);
      await invite(decliner);
      const pending = async (u: TestUser) =>
        (await t.req({ method: 'GET', url: '/api/users/me/invitations', token: u.token })).json()[0]
          .id as string;
      const accepted = await one('invitation.accepted', async () => {
        const res = await t.req({
          method: 'POST',
          url: `/api/users/me/invitations/${await pending(joiner)}/accept`,
          token: joiner.token,
        });
        expect(res.statusCode, res.body).toBeLessThan(300);
      });
      expect(accepted.actor_user_id).toBe(joiner.id);
      await one('invitation.declined', async () => {
        const res = await t.req({
          method: 'POST',
          url: `/api/users/me/invitations/${await pending(decliner)}/decline`,
          token: decliner.token,
        });
        expect(res.statusCode, res.body).toBeLessThan(300);
      });
      const level = await one('membership.level_changed', async () => {
        const res = await t.req({
          method: 'PATCH',
          url: `/api/organizations/${org}/users/${joiner.id}`,
          token: ceo.token,
          body: { org_access_level: 'manager' },
        });
        expect(res.statusCode, res.body).toBe(200);
      });
      expect(level.after).toBe(JSON.stringify({ org_access_level: 'manager' }));
      await one('membership.removed', async () => {
        const res = await t.req({
          method: 'DELETE',
          url: `/api/organizations/${org}/users/${joiner.id}`,
          token: ceo.token,
        });
        expect(res.statusCode, res.body).toBe(204);
      });
    });
  });

  describe('AI, agent and run writes', () => {
    it('memories the AI stores: one undoable entry each; undo forgets it', async () => {
      const rows = await added('memory.created', () =>
        t.req({
          method: 'POST',
          url: '/api/memory/mine',
          token: member.token,
          body: { content: 'My team is in Lisbon.' },
        }),
      );
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        actor_user_id: member.id,
        via: 'ai',
        entity_type: 'memory',
        undoable: 1,
      });
      const res = await t.req({
        method: 'POST',
        url: `/api/activity/${rows[0].id}/undo`,
        token: member.token,
      });
      expect(res.statusCode, res.body).toBe(200);
      const left = await t.req({ method: 'GET', url: '/api/memory/', token: member.token });
      expect(left.json().map((m: { id: string }) => m.id)).not.toContain(rows[0].entity_id);
    });

    it('advice a run writes (Generate Advice), via run:<id>, undoable', async () => {
      const goal = await t.req({
        method: 'POST',
        url: '/api/strategic-goals/',
        token: ceo.token,
        body: {
          title: 'Grow',
          due_date: new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10),
          kpis: [{ name: 'Deals', current_value: 1, target_value: 9 }],
        },
      });
      expect(goal.statusCode, goal.body).toBe(201);
      let runId = '';
      const row = await one('advice.created', async () => {
        const res = await t.req({
          method: 'POST',
          url: '/api/flow/run/strategic_flow',
          token: ceo.token,
          body: { inputs: {} },
        });
        expect(res.statusCode, res.body).toBe(202);
        runId = res.json().id;
        await waitForStatus(t.req, ceo.token, 'flow', runId, ['completed', 'failed']);
      });
      expect(row).toMatchObject({
        actor_user_id: ceo.id,
        via: `run:${runId}`,
        entity_type: 'advice',
        undoable: 1,
      });
      const res = await t.req({ method: 'POST', url: `/api/activity/${row.id}/undo`, token: ceo.token });
      expect(res.statusCode, res.body).toBe(200);
      expect(
        (await t.req({ method: 'GET', url: `/api/strategic-advice/${row.entity_id}`, token: ceo.token }))
          .statusCode,
      ).toBe(404);
    });

    it('a message sent from an AI draft', async () => {
      const thread = await t.req({
        method: 'POST',
        url: '/api/comms/threads',
        token: ceo.token,
        body: { participant_ids: [member.id] },
      });
      expect(thread.statusCode, thread.body).toBe(201);
      const p = `/api/comms/threads/${thread.json().id}/suggestion`;
      expect(
        (await t.req({ method: 'PUT', url: p, token: ceo.token, body: { text: 'AI draft' } })).statusCode,
      ).toBe(200);
      const row = await one('comms.message_sent', async () => {
        const res = await t.req({
          method: 'POST',
          url: `${p}/use`,
          token: ceo.token,
          body: { text: 'AI draft, edited' },
        });
        expect(res.statusCode, res.body).toBe(201);
      });
      expect(row).toMatchObject({
        actor_user_id: ceo.id,
        via: 'ai',
        entity_type: 'comms_message',
        undoable: 0,
      });
      expect(row.after).toContain('AI draft, edited');
      // A message the person wrote themselves is not an AI write.
      expect(
        await added('comms.message_sent', () =>
          t.req({
            method: 'POST',
            url: `/api/comms/threads/${thread.json().id}/messages`,
            token: ceo.token,
            body: { text: 'mine' },
          }),
        ),
      ).toHaveLength(0);
    });

    it("an HTTP tool's call from a run: destination and status, no query values", async () => {
      const tool = await t.req({
        method: 'POST',
        url: '/api/tools/',
        token: ceo.token,
        body: { name: 'Quotes', http: { url: `${tools.url('/quotes')}?api_key=sekret` } },
      });
      expect(tool.statusCode, tool.body).toBe(201);
      const agents = await builtinAgentIds(t, ceo);
      const flow = await t.req({
        method: 'POST',
        url: '/api/flows/',
        token: ceo.token,
        body: {
          name: 'Tool flow',
          steps: [{ title: 'Look', kind: 'agent', agent_id: agents.Writer, tool_id: tool.json().id }],
        },
      });
      expect(flow.statusCode, flow.body).toBe(201);
      let runId = '';
      const row = await one('external.call', async () => {
        runId = await startRun(t.req, ceo.token, 'flow', flow.json().id);
        await waitForStatus(t.req, ceo.token, 'flow', runId, ['completed', 'failed']);
      });
      expect(tools.hits('/quotes')).toBe(1);
      expect(row).toMatchObject({ actor_user_id: ceo.id, via: `run:${runId}`, entity_type: 'external_call' });
      const after = JSON.parse(row.after ?? '{}');
      expect(after).toMatchObject({ tool: 'Quotes', method: 'POST', status: 200 });
      expect(after.destination).toBe(`${tools.url('/quotes')}?api_key=…`);
      expect(JSON.stringify(row)).not.toContain('sekret');
    });

    it('a web search the assistant makes in chat, via ai', async () => {
      const conv = await t.req({
        method: 'POST',
        url: '/api/conversations/',
        token: member.token,
        body: { name: 'Web' },
      });
      const row = await one('external.call', async () => {
        const res = await t.req({
          method: 'POST',
          url: `/api/conversations/${conv.json().id}/chat`,
          token: member.token,
          body: { message_text: 'Latest heron market news?', use_internet: true },
        });
        expect(res.statusCode, res.body).toBe(200);
      });
      expect(row).toMatchObject({ actor_user_id: member.id, via: 'ai' });
      expect(JSON.parse(row.after ?? '{}')).toMatchObject({ tool: 'web_search', method: 'GET', status: 200 });
    });
  });
});
