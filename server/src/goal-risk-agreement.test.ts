import {
  dayText,
  type TAdviceGeneration,
  type TBrief,
  type TGoal,
  type TTaskSuggestion,
  withDayTexts,
} from '@cc/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { apiSuite, createTestApp, type TestApp, type TestUser } from '../test/helpers.ts';
import { streamAssistantTurn } from './ai/assistant.ts';

const DAY = 86_400_000;
const day = (offset: number) => new Date(Date.now() + offset * DAY).toISOString().slice(0, 10);

/**
 * One workspace, every feature (issue 47 §1): the goals API (the dashboard and the Strategy page read
 * it), the Brief, task suggestions, strategic advice and a chat answer name the same goals as at risk,
 * with the same reasons and figures, because they all read them from the goals module.
 */
apiSuite('goals at risk: every feature agrees', () => {
  let t: TestApp;
  let ceo: TestUser;
  const goals: Record<string, TGoal> = {};

  const post = (url: string, body?: unknown) => t.req({ method: 'POST', url, token: ceo.token, body });
  const make = async (key: string, body: Record<string, unknown>) => {
    const res = await post('/api/strategic-goals/', body);
    expect(res.statusCode, res.body).toBe(201);
    goals[key] = res.json();
  };
  const checkin = async (key: string, value: number, date: string) => {
    const g = goals[key];
    const res = await post(`/api/strategic-goals/${g.id}/kpis/${g.kpis[0].id}/checkins`, { value, date });
    expect(res.statusCode, res.body).toBe(201);
  };

  beforeAll(async () => {
    t = await createTestApp({ AI_OFFLINE_TOKEN_DELAY_MS: '0' });
    ceo = await t.createUser('ceo', { first_name: 'Cleo' });
    // Behind its straight line (20 % done, 67 % expected) and forecast to miss its target.
    await make('arr', {
      title: 'Grow ARR',
      start_date: day(-60),
      due_date: day(30),
      kpis: [{ name: 'ARR', current_value: 2, target_value: 10, unit: '$M' }],
    });
    await checkin('arr', 1, day(-60));
    await checkin('arr', 1.5, day(-30));
    // Lower is better, 3 % against a 5 % ceiling and falling: met, on track.
    await make('churn', {
      title: 'Keep churn low',
      start_date: day(-60),
      due_date: day(30),
      kpis: [
        { name: 'Monthly churn', current_value: 3, target_value: 5, unit: '%', direction: 'lower_is_better' },
      ],
    });
    await checkin('churn', 4, day(-20));
    // On its line, but its KPI has not been checked in for twenty days.
    await make('berlin', {
      title: 'Open Berlin office',
      start_date: day(-10),
      due_date: day(200),
      kpis: [{ name: 'Hires', current_value: 2, target_value: 10 }],
    });
    await t.ctx.db.deleteFrom('kpi_checkins').where('kpi_id', '=', goals.berlin.kpis[0].id).execute();
    await checkin('berlin', 2, day(-20));
    // Created today, due in three weeks: nothing is expected yet.
    await make('push', {
      title: 'Three-week push',
      due_date: day(21),
      kpis: [{ name: 'Signed pilots', current_value: 0, target_value: 3 }],
    });
  });
  afterAll(() => t.close());

  /** The goals API's verdict, read once: what every feature must repeat. */
  const atRisk = async () => {
    const res = await t.req({ method: 'GET', url: '/api/strategic-goals/?limit=100', token: ceo.token });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as TGoal[]).filter((g) => g.risk.at_risk);
  };

  it('the goals API names the goals at risk with their reasons', async () => {
    const risky = await atRisk();
    expect(risky.map((g) => g.title).sort()).toEqual(['Grow ARR', 'Open Berlin office']);
    const arr = risky.find((g) => g.title === 'Grow ARR') as TGoal;
    expect(arr.risk.reasons[0]).toBe('20% done, 67% expected by today');
    expect(arr.risk.reasons[1]).toMatch(
      /^KPI “ARR” is forecast at [\d.]+ \$M by the due date, short of its target of 10 \$M$/,
    );
    expect((risky.find((g) => g.title === 'Open Berlin office') as TGoal).risk.reasons).toEqual([
      `KPI “Hires” has had no check-in since ${day(-20)}`,
    ]);
    // Each goal read alone says the same.
    for (const g of risky) {
      const one = await t.req({ method: 'GET', url: `/api/strategic-goals/${g.id}`, token: ceo.token });
      expect(one.json().risk).toEqual(g.risk);
    }
  });

  it('the Brief lists exactly those goals, with the same reasons', async () => {
    const risky = await atRisk();
    const res = await post('/api/briefs/generate');
    expect(res.statusCode, res.body).toBe(201);
    const brief: TBrief = res.json();
    const section = brief.sections.find((s) => s.key === 'goals_at_risk');
    expect(section?.items.map((i) => i.citations[0]?.id).sort()).toEqual(risky.map((g) => g.id).sort());
    for (const g of risky) {
      expect(section?.items.map((i) => i.text)).toContain(
        // The same reasons word for word, their days written as the brief writes every day.
        `Goal “${g.title}” (due ${dayText(g.due_date)}) is at risk: ${withDayTexts(g.risk.reasons.join('; '))}.`,
      );
    }
  });

  it('task suggestions come from exactly those goals, quoting their reasons', async () => {
    const risky = await atRisk();
    const res = await post('/api/task-suggestions/generate');
    expect(res.statusCode, res.body).toBe(200);
    const suggestions: TTaskSuggestion[] = res.json().suggestions;
    const fromGoals = suggestions.filter((s) => s.source_type === 'kpi' || s.source_type === 'goal');
    // A KPI's suggestion cites its goal.
    expect([...new Set(fromGoals.map((s) => s.citations[0]?.id))].sort()).toEqual(
      risky.map((g) => g.id).sort(),
    );
    for (const g of risky) {
      const mine = fromGoals.find((s) => s.citations[0]?.id === g.id) as TTaskSuggestion;
      expect(mine.llm_context).toContain(`is at risk: ${g.risk.reasons.join('; ')}.`);
    }
  });

  it('strategic advice names exactly those goals as at risk, with the same reasons', async () => {
    const risky = await atRisk();
    const res = await post('/api/flow/run/strategic_flow', { inputs: { user_id: ceo.id } });
    expect(res.statusCode, res.body).toBe(202);
    const id = res.json().id as string;
    let run: TAdviceGeneration | undefined;
    for (let i = 0; i < 400 && run?.status !== 'completed' && run?.status !== 'failed'; i++) {
      await new Promise((r) => setTimeout(r, 40));
      run = (await t.req({ method: 'GET', url: `/api/flow/runs/${id}`, token: ceo.token })).json();
    }
    expect(run?.status).toBe('completed');
    const advice = (
      await t.req({ method: 'GET', url: '/api/strategic-advice/?limit=1', token: ceo.token })
    ).json()[0];
    const section = advice.content.split('## Goals at risk')[1].split('\n## ')[0];
    const named = [...section.matchAll(/^- Goal “([^”]+)”: (.*)$/gm)].map((m) => [m[1], m[2]]);
    expect(named.sort()).toEqual(risky.map((g) => [g.title, `${g.risk.reasons.join('; ')}.`]).sort());
  });

  it('a chat answer names exactly those goals as at risk, with the same reasons', async () => {
    const risky = await atRisk();
    const turn = await streamAssistantTurn({
      ctx: t.ctx,
      user: {
        id: ceo.id,
        email: ceo.email,
        first_name: 'Cleo',
        last_name: null,
        user_level: 'ceo',
        organization_id: null,
      },
      history: [],
      message: 'Which goals are at risk?',
      useMemory: false,
      useInternalSearch: true,
      useInternet: false,
    });
    for await (const _ of turn.textStream) {
      // drained: the answer is read whole below
    }
    const { text } = await turn.result;
    for (const g of risky)
      expect(text).toContain(`Goal “${g.title}” is at risk: ${g.risk.reasons.join('; ')}.`);
    const namedAtRisk = [...text.matchAll(/Goal “([^”]+)” is at risk/g)].map((m) => m[1]);
    expect([...new Set(namedAtRisk)].sort()).toEqual(risky.map((g) => g.title).sort());
  });
});
