import type { TBrief, TBriefSection, TInboxList } from '@cc/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiSuite, createTestApp, type TestApp, type TestUser } from '../../../test/helpers.ts';
import { seedCheckin, seedGoal, seedSuggestion, seedTask } from './briefs-test-kit.ts';
import { generateBrief } from './briefs.service.ts';

/** Issue 47 item 4: the brief's words (days, plurals, "Why it moved") and its waiting list. */
apiSuite('executive brief: wording and the waiting list', () => {
  let t: TestApp;
  let ceo: TestUser;
  let peer: TestUser;

  beforeAll(async () => {
    t = await createTestApp();
    ceo = await t.createUser('ceo', { first_name: 'Cleo' });
    peer = await t.createUser('user', { first_name: 'Pat' });
    const org = await t.createOrg(ceo, 'Acme');
    await t.addToOrg(ceo, org, peer);
  });
  afterAll(() => t.close());

  const sectionOf = (brief: TBrief, key: TBriefSection['key']) => brief.sections.find((s) => s.key === key);
  const generate = async (u: TestUser) => {
    const res = await t.req({ method: 'POST', url: '/api/briefs/generate', token: u.token });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as TBrief;
  };
  const inboxOf = async (u: TestUser) => {
    const res = await t.req({ method: 'GET', url: '/api/inbox/', token: u.token });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as TInboxList;
  };

  describe('"Waiting for you" lists what GET /api/inbox/ lists', () => {
    it('every pending item (more than ten), in the inbox order, and none it does not list', async () => {
      for (let i = 0; i < 13; i++) {
        await seedSuggestion(
          t,
          ceo,
          `Idea ${i + 1}`,
          `2026-06-${String(i + 1).padStart(2, '0')}T00:00:00.000Z`,
        );
      }
      const handed = await seedSuggestion(t, ceo, 'Plan offsite', '2026-05-30T00:00:00.000Z');
      const delegated = await t.req({
        method: 'POST',
        url: `/api/inbox/${handed.itemId}/delegate`,
        token: ceo.token,
        body: { user_id: peer.id },
      });
      expect(delegated.statusCode, delegated.body).toBe(200);
      const first = await inboxOf(ceo);
      const approved = await t.req({
        method: 'POST',
        url: `/api/inbox/${first.items[0].id}/approve`,
        token: ceo.token,
        body: {},
      });
      expect(approved.statusCode, approved.body).toBe(200);

      const brief = await generate(ceo);
      const inbox = await inboxOf(ceo);
      expect(inbox.total).toBe(12);
      const waiting = sectionOf(brief, 'items_waiting');
      expect(waiting?.items.map((i) => i.citations[0]?.id)).toEqual(inbox.items.map((i) => i.id));
      expect(waiting?.items).toHaveLength(inbox.total);
      expect(waiting?.items[0].text).toBe('Task suggestion “Idea 2” waits for your approval.');

      const theirs = sectionOf(await generate(peer), 'items_waiting');
      expect(theirs?.items.map((i) => i.citations[0]?.id)).toEqual(
        (await inboxOf(peer)).items.map((i) => i.id),
      );
      expect(theirs?.items.map((i) => i.text)).toEqual([
        'Task suggestion “Plan offsite” waits for your approval.',
      ]);
    });
  });

  describe('days, plurals and "Why it moved"', () => {
    let brief: TBrief;
    const NOW = new Date('2026-06-15T08:00:00.000Z');

    beforeAll(async () => {
      const cleo = await t.createUser('ceo', { first_name: 'Dana' });
      const goal = await seedGoal(
        t,
        {
          owner: cleo,
          org: null,
          title: 'Win the north',
          due: '2026-12-31',
          created: '2026-06-01T00:00:00.000Z',
        },
        { name: 'Customers signed', current: 1, target: 5, unit: 'customers' },
      );
      // The KPI moved this week, with no task, run or message behind it.
      await seedCheckin(t, goal.kpiId, 0, '2026-06-02', '2026-06-02T10:00:00.000Z');
      await seedCheckin(t, goal.kpiId, 1, '2026-06-12', '2026-06-12T10:00:00.000Z');
      await seedTask(t, {
        title: 'Board deck',
        by: cleo,
        assignee: cleo,
        priority: 'High',
        due: '2026-06-10',
      });
      await seedTask(t, {
        title: 'Plan Q3',
        by: cleo,
        assignee: cleo,
        priority: 'Urgent',
        due: '2026-07-01',
      });
      brief = await generateBrief(
        t.ctx,
        { id: cleo.id, organization_id: null },
        { trigger: 'manual', now: NOW },
      );
    });

    it('a quantity of one is singular: "1 customer", never "1 customers"', () => {
      expect(sectionOf(brief, 'kpi_moves')?.items.map((i) => i.text)).toEqual([
        'KPI “Customers signed” of goal “Win the north” moved from 0 to 1 customer, up 1 (target 5 customers).',
      ]);
      expect(JSON.stringify(brief)).not.toMatch(/\b1 customers\b/);
    });

    it('writes days as the app prints them ("10 Jun 2026"), never YYYY-MM-DD', () => {
      expect(sectionOf(brief, 'my_tasks')?.items.map((i) => i.text)).toEqual([
        'Task “Board deck” (High) was due 10 Jun 2026 (5 days overdue).',
        'Task “Plan Q3” (Urgent) is due 1 Jul 2026.',
      ]);
      const text = JSON.stringify([
        brief.summary,
        brief.actions.map((a) => a.text),
        brief.sections.map((s) => s.items.map((i) => i.text)),
      ]);
      expect(text).not.toMatch(/\d{4}-\d{2}-\d{2}/);
    });

    it('says no "Why it moved" when a KPI moved with nothing behind it, and never "0 tasks done"', () => {
      expect(brief.sections.map((s) => s.key)).not.toContain('why_it_moved');
      expect(JSON.stringify(brief)).not.toMatch(/\b0 (tasks|runs|messages)\b/);
    });
  });
});
