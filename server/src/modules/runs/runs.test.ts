import { RUN_ALREADY_ACTIVE, RUN_STOPPED_SUMMARY } from '@cc/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { apiSuite, createTestApp, type TestApp, type TestUser } from '../../../test/helpers.ts';
import { holdFlush } from '../../../test/held-flush.ts';
import { connectSse } from '../../../test/sse.ts';
import { expectWellFormed } from '../../ai/offline/offline-test-kit.ts';
import {
  builtinAgentIds,
  createConversation,
  startRun,
  startToolServer,
  timelineOf,
  waitForStatus,
} from './runs-test-kit.ts';

apiSuite('crew and flow runs (offline engine)', () => {
  let t: TestApp;
  let ceo: TestUser;
  let other: TestUser;
  let agents: Record<string, string>;
  let tools: Awaited<ReturnType<typeof startToolServer>>;
  beforeAll(async () => {
    t = await createTestApp({ RUN_POLL_MS: '200' });
    ceo = await t.createUser('ceo');
    other = await t.createUser('user');
    agents = await builtinAgentIds(t, ceo);
    tools = await startToolServer();
  });
  afterAll(async () => {
    await t.close();
    await tools.close();
  });

  const createCrew = async (tasks: Record<string, unknown>[], extra: Record<string, unknown> = {}) => {
    const res = await t.req({
      method: 'POST',
      url: '/api/crews/',
      token: ceo.token,
      body: { name: `Crew ${Math.random().toString(36).slice(2, 7)}`, version: '1', tasks, ...extra },
    });
    expect(res.statusCode).toBe(201);
    return res.json().id as string;
  };
  const createFlow = async (steps: Record<string, unknown>[]) => {
    const res = await t.req({
      method: 'POST',
      url: '/api/flows/',
      token: ceo.token,
      body: { name: `Flow ${Math.random().toString(36).slice(2, 7)}`, steps },
    });
    expect(res.statusCode).toBe(201);
    return res.json().id as string;
  };

  it('a three-task crew completes in order, each task seeing the previous output, logged in the conversation', async () => {
    const crewId = await createCrew([
      { name: 'Alpha research', description: 'Collect facts', agent_id: agents.Researcher },
      { name: 'Beta analysis', description: 'Analyse the facts', agent_id: agents.Analyst },
      { name: 'Gamma summary', description: 'Write it up', agent_id: agents.Writer },
    ]);
    const task = await t.req({
      method: 'POST',
      url: '/api/tasks/',
      token: ceo.token,
      body: { title: 'Nordic expansion plan', priority: 'High', due_date: '2020-02-01' },
    });
    expect(task.statusCode).toBe(201);
    const conv = await createConversation(t, ceo);
    const id = await startRun(t.req, ceo.token, 'crew', crewId, {
      conversationId: conv,
      inputs: { topic: 'Nordic expansion' },
    });
    expect(id).toBeTruthy();
    const run = await waitForStatus(t.req, ceo.token, 'crew', id, ['completed', 'failed']);
    expect(run.status).toBe('completed');

    const timeline = await timelineOf(t.req, ceo.token, 'crew', id);
    expect(timeline[0].type).toBe('crew_start');
    expect(timeline.at(-1)?.type).toBe('crew_end');
    const ids = timeline.map((e) => Number(e.id));
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
    const outputs = timeline.filter((e) => e.type === 'task_output');
    expect(outputs.map((e) => e.details?.name)).toEqual(['Alpha research', 'Beta analysis', 'Gamma summary']);
    const texts = outputs.map((e) => String(e.details?.output));
    // The researcher names what it found for the run's input, the analyst tells it with its facts
    // and builds on the researcher, the writer sums both up; none leaks a template marker.
    expect(texts[0]).toContain('You asked about topic “Nordic expansion”.');
    expect(texts[0]).toContain('- Task “Nordic expansion plan”');
    expect(texts[1]).toContain('- Task “Nordic expansion plan” is overdue: it was due 2020-02-01');
    expect(texts[1]).toContain(
      'This builds on “Alpha research”, which put first: Task “Nordic expansion plan”.',
    );
    expect(texts[2]).toMatch(/^In short: Task “Nordic expansion plan”\. As of \S+ you have no open goals/);
    expect(texts[2]).toContain('- Task “Nordic expansion plan” is overdue');
    for (const text of texts) {
      expect(text).toContain('_Offline engine — written as the ');
      expectWellFormed(text);
    }
    // Each task's events come in order: start, (tool calls), thought, output.
    const types = timeline.map((e) => e.type);
    expect(types.filter((x) => x === 'task_start')).toHaveLength(3);
    expect(types).toContain('thought');
    expect(types).toContain('tool_call'); // the built-in agents ground themselves with their tools
    expect(types.indexOf('task_start')).toBeLessThan(types.indexOf('task_output'));
    expect(run.result).toBe(texts[2]);

    const messages = await t.req({
      method: 'GET',
      url: `/api/conversations/${conv}/messages`,
      token: ceo.token,
    });
    const items = messages.json().items as { text: string; crew_run_id: string | null }[];
    expect(items.length).toBeGreaterThanOrEqual(5);
    expect(items.every((m) => m.crew_run_id === id)).toBe(true);
    expect(items.at(-1)?.text).toContain(texts[2]);
  });

  it('a human-input task pauses the crew and resumes with the answer; a flow waits for a person', async () => {
    const crewId = await createCrew([
      { name: 'Draft', description: 'Draft options', agent_id: agents.Strategist },
      { name: 'Decide', description: 'Which option?', agent_id: agents.Writer, human_input: true },
    ]);
    const id = await startRun(t.req, ceo.token, 'crew', crewId);
    const paused = await waitForStatus(t.req, ceo.token, 'crew', id, ['awaiting_human_input']);
    expect(paused.human_prompt).toContain('Which option?');
    let timeline = await timelineOf(t.req, ceo.token, 'crew', id);
    const prompt = timeline.filter((e) => e.type === 'human_prompt').at(-1);
    expect(prompt?.details?.prompt).toBe(paused.human_prompt);
    expect(timeline.filter((e) => e.type === 'task_output')).toHaveLength(1);

    const blank = await t.req({
      method: 'POST',
      url: `/api/crew-runs/${id}/continue`,
      token: ceo.token,
      body: { user_input: '  ' },
    });
    expect(blank.statusCode).toBe(422);
    const cont = await t.req({
      method: 'POST',
      url: `/api/crew-runs/${id}/continue`,
      token: ceo.token,
      body: { user_input: 'Option B, Europe first' },
    });
    expect(cont.statusCode).toBe(200);
    expect(cont.json().status).toBe('running');
    await waitForStatus(t.req, ceo.token, 'crew', id, ['completed']);
    timeline = await timelineOf(t.req, ceo.token, 'crew', id);
    const outputs = timeline.filter((e) => e.type === 'task_output');
    expect(outputs).toHaveLength(2);
    const decided = String(outputs[1].details?.output);
    expect(decided).toContain(
      'Your answer was “Option B, Europe first”, and this step takes it as the decision.',
    );
    expect(decided).toContain('This builds on “Draft”');
    expectWellFormed(decided);
    expect(
      timeline.some((e) => e.type === 'human_input' && e.details?.user_input === 'Option B, Europe first'),
    ).toBe(true);
    const again = await t.req({
      method: 'POST',
      url: `/api/crew-runs/${id}/continue`,
      token: ceo.token,
      body: { user_input: 'late' },
    });
    expect(again.statusCode).toBe(409);

    const flowId = await createFlow([
      { title: 'Plan', agent_id: agents.Strategist },
      { title: 'Approve', kind: 'wait_for_human', prompt: 'Approve the plan?' },
      { title: 'Final', agent_id: agents.Writer },
    ]);
    const f = await t.req({
      method: 'POST',
      url: '/api/flow-runs/',
      token: ceo.token,
      body: { flow_id: flowId },
    });
    expect(f.statusCode).toBe(201);
    const fid = f.json().flow_run_id as string;
    expect(f.json().status).toBe('running');
    const fp = await waitForStatus(t.req, ceo.token, 'flow', fid, ['paused']);
    expect(fp.human_prompt).toBe('Approve the plan?');
    const ft = await timelineOf(t.req, ceo.token, 'flow', fid);
    expect(ft.at(-1)).toMatchObject({ type: 'wait_for_human', details: { prompt: 'Approve the plan?' } });
    await t.req({
      method: 'POST',
      url: `/api/flow-runs/${fid}/continue`,
      token: ceo.token,
      body: { user_input: 'yes' },
    });
    const done = await waitForStatus(t.req, ceo.token, 'flow', fid, ['completed', 'failed']);
    expect(done.status).toBe('completed');
    const types = (await timelineOf(t.req, ceo.token, 'flow', fid)).map((e) => e.type);
    expect(types.slice(-2)).toEqual(['result', 'terminal']);
    expect(String(done.result)).toMatch(
      /^Your answer to “Approve” was “yes”, so the plan stands as drafted\./,
    );
    expectWellFormed(String(done.result));
  });

  it('a crew that requires input cannot start with blank questions', async () => {
    const crews = (await t.req({ method: 'GET', url: '/api/crews/', token: ceo.token })).json() as {
      id: string;
      name: string;
    }[];
    const brief = crews.find((c) => c.name === 'Market Research Brief') as { id: string };
    const blank = await t.req({
      method: 'POST',
      url: '/api/crew-runs/',
      token: ceo.token,
      body: { crew_id: brief.id, inputs: { market: '  ' } },
    });
    expect(blank.statusCode).toBe(422);
    const ok = await t.req({
      method: 'POST',
      url: '/api/crew-runs/',
      token: ceo.token,
      body: { crew_id: brief.id, inputs: { market: 'EV charging' } },
    });
    expect(ok.statusCode).toBe(201);
    await waitForStatus(t.req, ceo.token, 'crew', ok.json().crew_run_id, ['completed']);
  });

  it('two starts in one conversation at once give one run and one 409; a stopped run frees it', async () => {
    const crewId = await createCrew([{ name: 'Ask', description: 'Ask first', human_input: true }]);
    const flowId = await createFlow([{ title: 'Wait', kind: 'wait_for_human', prompt: 'Go?' }]);
    const conv = await createConversation(t, ceo);
    const [a, b, c] = await Promise.all([
      t.req({
        method: 'POST',
        url: `/api/conversations/${conv}/crew-runs`,
        token: ceo.token,
        body: { crew_id: crewId },
      }),
      t.req({
        method: 'POST',
        url: `/api/crew-runs/?conversation_id=${conv}`,
        token: ceo.token,
        body: { crew_id: crewId },
      }),
      t.req({
        method: 'POST',
        url: `/api/flow-runs/?conversation_id=${conv}`,
        token: ceo.token,
        body: { flow_id: flowId },
      }),
    ]);
    const codes = [a.statusCode, b.statusCode, c.statusCode].sort();
    expect(codes).toEqual([201, 409, 409]);
    const conflict = [a, b, c].find((r) => r.statusCode === 409);
    expect(conflict?.json().detail).toBe(RUN_ALREADY_ACTIVE);
    const winner = [a, b, c].find((r) => r.statusCode === 201);
    const isCrew = 'crew_run_id' in (winner?.json() ?? {});
    const kind = isCrew ? 'crew' : 'flow';
    const runId = (winner?.json().crew_run_id ?? winner?.json().flow_run_id) as string;
    const crewRuns = await t.req({
      method: 'GET',
      url: `/api/crew-runs/?conversation_id=${conv}`,
      token: ceo.token,
    });
    const flowRuns = await t.req({
      method: 'GET',
      url: `/api/flow-runs/?conversation_id=${conv}`,
      token: ceo.token,
    });
    expect(crewRuns.json().length + flowRuns.json().length).toBe(1);

    await waitForStatus(t.req, ceo.token, kind, runId, [isCrew ? 'awaiting_human_input' : 'paused']);
    const stop = await t.req({ method: 'POST', url: `/api/${kind}-runs/${runId}/stop`, token: ceo.token });
    expect(stop.statusCode).toBe(200);
    expect(stop.json()).toMatchObject({ status: 'failed', human_prompt: null });
    const timeline = await timelineOf(t.req, ceo.token, kind, runId);
    expect(timeline.at(-1)).toMatchObject({
      type: isCrew ? 'crew_error' : 'terminal',
      summary: RUN_STOPPED_SUMMARY,
    });
    expect(
      (await t.req({ method: 'POST', url: `/api/${kind}-runs/${runId}/stop`, token: ceo.token })).statusCode,
    ).toBe(409);
    const next = await t.req({
      method: 'POST',
      url: `/api/crew-runs/?conversation_id=${conv}`,
      token: ceo.token,
      body: { crew_id: crewId },
    });
    expect(next.statusCode).toBe(201);
    await t.req({ method: 'POST', url: `/api/crew-runs/${next.json().crew_run_id}/stop`, token: ceo.token });
  });

  it('an HTTP tool pointed at 127.0.0.1 is refused (the endpoint is never reached)', async () => {
    const tool = await t.req({
      method: 'POST',
      url: '/api/tools/',
      token: ceo.token,
      body: { name: 'Local', http: { url: tools.url('/refused') }, requires_approval: false },
    });
    const flowId = await createFlow([{ title: 'Call it', kind: 'tool', tool_id: tool.json().id }]);
    const fid = await startRun(t.req, ceo.token, 'flow', flowId);
    await waitForStatus(t.req, ceo.token, 'flow', fid, ['completed', 'failed']);
    const timeline = await timelineOf(t.req, ceo.token, 'flow', fid);
    const result = timeline.find((e) => e.type === 'tool_result');
    expect(result?.summary).toMatch(/Local failed: .*(refus|not allowed|blocked|private|loopback)/i);
    expect(tools.hits('/refused')).toBe(0);
  });

  it('strategic_flow (Generate Advice) runs on the engine and writes an advice record', async () => {
    const fid = await startRun(t.req, ceo.token, 'flow', 'strategic_flow');
    const done = await waitForStatus(t.req, ceo.token, 'flow', fid, ['completed', 'failed']);
    expect(done.status).toBe('completed');
    const advice = await t.req({ method: 'GET', url: '/api/strategic-advice/', token: ceo.token });
    const rows = advice.json() as { crew_run_id: string | null; content: string }[];
    const mine = rows.find((r) => r.crew_run_id === fid);
    expect(mine?.content).toBeTruthy();
    expect(String(done.result)).toContain(String(mine?.content).slice(0, 40));
    // The offline advice builds on the flow's review step: it says what the review put first.
    expect(mine?.content).toMatch(/The review \(“Review goals and KPIs”\) put this first: \S/);
    expectWellFormed(String(mine?.content));
  });

  it("another user's runs, timelines and streams are 404; their conversation cannot host my run", async () => {
    const crewId = await createCrew([{ name: 'Solo', description: 'Only task' }]);
    const conv = await createConversation(t, ceo);
    const id = await startRun(t.req, ceo.token, 'crew', crewId, { conversationId: conv });
    await waitForStatus(t.req, ceo.token, 'crew', id, ['completed']);
    for (const [method, url] of [
      ['GET', `/api/crew-runs/${id}`],
      ['GET', `/api/crew-runs/${id}/timeline`],
      ['POST', `/api/crew-runs/${id}/stop`],
      ['GET', `/api/crew-runs/?conversation_id=${conv}`],
      ['GET', `/api/flow-runs/${id}/timeline`],
    ] as const) {
      expect((await t.req({ method, url, token: other.token })).statusCode, url).toBe(404);
    }
    const cont = await t.req({
      method: 'POST',
      url: `/api/crew-runs/${id}/continue`,
      token: other.token,
      body: { user_input: 'x' },
    });
    expect(cont.statusCode).toBe(404);
    const mine = await t.req({ method: 'GET', url: '/api/crew-runs/', token: other.token });
    expect(mine.json()).toEqual([]);
    // The other user can see built-in crews but cannot use my private crew or my conversation.
    expect(
      (await t.req({ method: 'POST', url: '/api/crew-runs/', token: other.token, body: { crew_id: crewId } }))
        .statusCode,
    ).toBe(404);
    const builtin = (await t.req({ method: 'GET', url: '/api/crews/', token: other.token })).json()[0].id;
    expect(
      (
        await t.req({
          method: 'POST',
          url: `/api/conversations/${conv}/crew-runs`,
          token: other.token,
          body: { crew_id: builtin },
        })
      ).statusCode,
    ).toBe(404);

    const base = await t.listen();
    const stream = await connectSse(`${base}/api/crew-runs/${id}/events?token=${other.token}`);
    expect(stream.status).toBe(404);
    stream.close();
  });

  it('SSE: replays the timeline, resumes after Last-Event-ID, closes on the terminal event, refuses no token', async () => {
    const base = await t
      .listen()
      .catch(() => `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`);
    const crewId = await createCrew([
      { name: 'One', description: 'First', human_input: true },
      { name: 'Two', description: 'Second' },
    ]);
    const id = await startRun(t.req, ceo.token, 'crew', crewId);
    await waitForStatus(t.req, ceo.token, 'crew', id, ['awaiting_human_input']);

    const noToken = await connectSse(`${base}/api/crew-runs/${id}/events`);
    expect(noToken.status).toBe(401);
    noToken.close();

    // Live: replay up to the prompt, then follow the run to its end; the server closes the stream.
    const live = await connectSse(`${base}/api/crew-runs/${id}/events?token=${ceo.token}`);
    expect(live.status).toBe(200);
    const replay = await live.collect((e) => (e.data as { type: string }).type === 'human_prompt', 5_000);
    expect(replay[0]).toMatchObject({ event: 'run_event', data: { type: 'crew_start', run_id: id } });
    await t.req({
      method: 'POST',
      url: `/api/crew-runs/${id}/continue`,
      token: ceo.token,
      body: { user_input: 'go' },
    });
    const rest = await live.collect((e) => (e.data as { type: string }).type === 'crew_end', 10_000);
    expect(rest.at(-1)?.data).toMatchObject({ type: 'crew_end' });
    await live.closed;
    const all = [...replay, ...rest];
    const seqs = all.map((e) => Number(e.id));
    expect(new Set(seqs).size).toBe(seqs.length);

    // Resume after the third event: exactly the rest, in order, then the stream ends.
    const timeline = await timelineOf(t.req, ceo.token, 'crew', id);
    const resumed = await connectSse(`${base}/api/crew-runs/${id}/events?token=${ceo.token}`, {
      lastEventId: timeline[2].id,
    });
    const after = await resumed.collect((e) => (e.data as { type: string }).type === 'crew_end', 5_000);
    expect(after.map((e) => e.id)).toEqual(timeline.slice(3).map((e) => e.id));
    await resumed.closed;
  });

  it('SSE: new events of a run go out at once while another write is still being flushed', async () => {
    const base = await t
      .listen()
      .catch(() => `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`);
    const crewId = await createCrew([{ name: 'Only', description: 'First', human_input: true }]);
    const id = await startRun(t.req, ceo.token, 'crew', crewId);
    await waitForStatus(t.req, ceo.token, 'crew', id, ['awaiting_human_input']);
    const live = await connectSse(`${base}/api/crew-runs/${id}/events?token=${ceo.token}`);
    await live.collect((e) => (e.data as { type: string }).type === 'human_prompt', 5_000);
    const flush = holdFlush(t.ctx);
    try {
      const res = await t.req({
        method: 'POST',
        url: `/api/crew-runs/${id}/continue`,
        token: ceo.token,
        body: { user_input: 'go' },
      });
      expect(res.statusCode).toBe(200);
      // Each event is noted once its own write is on disk: none waits for the flush still due.
      const rest = await live.collect((e) => (e.data as { type: string }).type === 'crew_end', 5_000);
      expect(rest[0].data).toMatchObject({ type: 'human_input' });
    } finally {
      flush.land();
      flush.restore();
      live.close();
    }
  });
});
