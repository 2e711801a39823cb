import { describe, expect, it } from 'vitest';
import { atRiskAnswer, kpiAskedAbout, questionKind } from './answers.ts';
import { SNAPSHOT_TOOL } from './offline-fixtures.ts';

// The answer kinds of issue 47 item 2 on the fixture workspace (the API test covers the same on both
// engines; here what needs a state the API cannot set up cheaply: an inbox item, many actions).

describe('what an executive asks', () => {
  it('recognises a metric by at least half of its KPI’s name, else a lookup', () => {
    expect(questionKind('How many EU customers have we signed?', SNAPSHOT_TOOL)).toBe('metric');
    expect(kpiAskedAbout('How many EU customers have we signed?', SNAPSHOT_TOOL)?.kpi.name).toBe(
      'EU customers signed',
    );
    expect(questionKind('Any news from the EU office?', SNAPSHOT_TOOL)).toBe('lookup');
    expect(questionKind('Which goals are behind plan and what should I do this week?', SNAPSHOT_TOOL)).toBe(
      'at-risk',
    );
    expect(questionKind('Draft a 200-word note to the board', SNAPSHOT_TOOL)).toBe('draft');
  });

  it('acts on what waits in the inbox, at most three actions', () => {
    const a = atRiskAnswer({
      ...SNAPSHOT_TOOL,
      overdue_tasks: [
        ...SNAPSHOT_TOOL.overdue_tasks,
        { id: 't9', title: 'Sign the lease', priority: 'High', status: 'To Do', due_date: '2026-11-02' },
      ],
      waiting: [{ title: 'Reply to Sofia about the budget', since: '2026-11-20' }],
    });
    expect(a.text).toBe(
      'One goal is behind plan. Goal “EU expansion” is at risk: 20% done, 67% expected by today; KPI “EU customers signed” ' +
        'is forecast at 2 customers by the due date, short of its target of 5 customers. This week I would ' +
        'finish or re-date Task “Prepare the board deck”, due 2026-11-01; finish or re-date Task “Sign the lease”, ' +
        'due 2026-11-02; and answer “Reply to Sofia about the budget”, waiting in your inbox since 2026-11-20.',
    );
    expect(a.text).not.toContain('Ship the partner portal');
    expect(a.cites.map((c) => c.title)).toEqual(['EU expansion', 'Prepare the board deck', 'Sign the lease']);
  });
});
