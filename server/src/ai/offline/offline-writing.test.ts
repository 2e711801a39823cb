import { describe, expect, it } from 'vitest';
import { offlineHandlers } from './handlers/index.ts';
import {
  handlerInput as input,
  SEARCH_TOOL,
  SNAPSHOT,
  SNAPSHOT_TOOL,
  toolResult,
} from './offline-fixtures.ts';
import { expectWellFormed } from './offline-test-kit.ts';
import { OFFLINE_NOTICE } from './types.ts';

// What each offline output says, word for word where it matters: the facts and names it uses, that
// it answers the message it replies to, and that no template marker leaks (offline-test-kit.ts).

const grounding = [
  toolResult('internal_search', SEARCH_TOOL),
  toolResult('workspace_snapshot', SNAPSHOT_TOOL),
];
const paragraphs = (text: string) => text.split('\n\n');

describe('offline chat answers', () => {
  const chat = offlineHandlers.chat;

  it('leads with the record asked about, told with its facts, then what is related and what is pressing', () => {
    const text = chat(
      input({
        lastUserText: 'What is the status of the board deck?',
        toolResults: grounding,
        data: { userName: 'Olivia Tester', memories: ['I lead the Lisbon office.'] },
      }),
    );
    const p = paragraphs(text);
    expect(p[0]).toBe(OFFLINE_NOTICE);
    expect(p[1]).toBe(
      'Task “Prepare the board deck” is overdue: it was due 2026-11-01 and is still in progress (High ' +
        'priority). It reads: “Q4 numbers and the EU pipeline for the board”. Also related: Note “Board prep call”.',
    );
    // The note's markdown snippet is quoted as plain sentences.
    // Anything else: the best matching records in a sentence, no list of the workspace.
    expect(p[1]).toMatch(/\. Also related: Note “Board prep call”\.$/);
    expect(p[2]).toBe('From earlier conversations I remember:\n- I lead the Lisbon office.');
    expect(p.at(-1)).toBe('Sources: Task “Prepare the board deck”, Note “Board prep call”');
    expectWellFormed(text);
  });

  it('says when nothing matches, then gives the state of the workspace', () => {
    const text = chat(
      input({
        lastUserText: 'Any news on Falcon?',
        toolResults: [
          toolResult('internal_search', { query: 'falcon', hits: [] }),
          toolResult('workspace_snapshot', SNAPSHOT_TOOL),
        ],
      }),
    );
    expect(paragraphs(text)[1]).toBe(
      'I found nothing in your workspace about “falcon”. As of 2026-11-24 you have 2 open goals (1 at risk), and 2 open tasks (1 overdue).',
    );
    expectWellFormed(text);
  });

  it('answers a greeting with a greeting and the state of the workspace, most pressing first', () => {
    const text = chat(
      input({
        lastUserText: 'Hello there!',
        toolResults: [
          toolResult('internal_search', { query: 'hello', hits: [] }),
          toolResult('workspace_snapshot', SNAPSHOT_TOOL),
        ],
        data: { userName: 'Olivia Tester' },
      }),
    );
    const p = paragraphs(text);
    expect(p[1]).toBe('Hello, Olivia.');
    expect(p[2]).toMatch(
      /^As of 2026-11-24 you have 2 open goals .* What needs attention first:\n- Goal “Ship the partner portal”/,
    );
    expect(text).not.toContain('found nothing');
    expectWellFormed(text);
  });

  it('quotes the attached file the question is about as sentences', () => {
    const text = chat(
      input({
        lastUserText: 'What is the Falcon budget?',
        data: {
          attachments: [
            {
              name: 'falcon-brief.txt',
              text: '# Project Falcon\n\nThe Falcon budget is 42000 euros.\nKick-off in May',
            },
            { name: 'lunch.txt', text: 'Soup of the day: tomato.' },
          ],
        },
      }),
    );
    expect(paragraphs(text)[1]).toBe(
      'File “falcon-brief.txt” says: Project Falcon. The Falcon budget is 42000 euros.',
    );
    expect(text).not.toContain('lunch.txt');
    expectWellFormed(text);
  });

  it('without Internal Search it says what to turn on, and still says it is the offline engine', () => {
    const text = chat(input({ lastUserText: 'How are we doing?' }));
    expect(paragraphs(text)[0]).toBe(OFFLINE_NOTICE);
    expect(text).toContain('Internal Search is off for this message');
    expectWellFormed(text);
  });
});

describe('offline run steps', () => {
  const step = (
    task: { name: string; description: string },
    o: {
      previous?: { name: string; output: string }[];
      human_answer?: string;
      inputs?: Record<string, string>;
    },
    tools = grounding,
    agent = { name: 'Analyst', role: 'Business analyst', goal: 'Find the gaps' },
  ) =>
    offlineHandlers['crew-task'](
      input({
        toolResults: tools,
        data: {
          run_name: 'Strategic Review',
          position: o.previous?.length ?? 0,
          task: { ...task, expected_output: null },
          agent,
          inputs: o.inputs ?? {},
          previous: o.previous ?? [],
          human_answer: o.human_answer ?? null,
        },
      }),
    );
  const assess = {
    name: 'Assess goals and KPIs',
    description: 'Review every goal and its KPIs; name the gaps.',
  };
  const draft = {
    name: 'Draft the plan',
    description: 'Draft a short plan of tasks that would move the goals forward.',
  };
  const finalise = {
    name: 'Finalise the plan',
    description: 'Write the final plan, applying the approval answer.',
  };

  it('a findings step says what it was asked, the state of the workspace and the facts, most pressing first', () => {
    const text = step(assess, { inputs: { market: 'Nordics' } });
    const p = paragraphs(text);
    expect(p[0]).toBe('You asked about market “Nordics”.');
    expect(p[1]).toBe(
      'As of 2026-11-24 you have 2 open goals (1 at risk), and 2 open tasks (1 overdue). What stands out:',
    );
    expect(p[2].split('\n')).toEqual([
      '- Goal “Ship the partner portal” is 40% complete (100% expected by today) and was due 2026-10-01.',
      '- Goal “EU expansion” is at risk: 20% done, 67% expected by today; KPI “EU customers signed” is forecast at 2 customers by the due date, short of its target of 5 customers.',
      '- Task “Prepare the board deck” is overdue: it was due 2026-11-01 and is still in progress (High priority).',
      '- Task “Hire a DACH sales lead” is not started, Medium priority, due 2026-12-15.',
      '- Note “Board prep call”: Notes. Leo wants the pipeline slide first.',
    ]);
    expect(p.at(-1)).toBe(
      '_Offline engine — written as the Analyst (Business analyst) from your workspace data; no AI provider is configured._',
    );
    expectWellFormed(text);
  });

  it('a plan step lists the actions, most pressing first, and builds on the earlier step', () => {
    const findings = step(assess, {});
    const text = step(draft, { previous: [{ name: assess.name, output: findings }] });
    expect(text).toContain(
      'The plan, most pressing first:\n\n' +
        '1. Re-plan Goal “Ship the partner portal”: set a realistic date or close it (it was due 2026-10-01).\n' +
        '2. Agree the actions that move EU customers signed for Goal “EU expansion”, now 20% of target.\n' +
        '3. Finish or re-date Task “Prepare the board deck”, which was due 2026-11-01.',
    );
    expect(text).toContain(
      'This builds on “Assess goals and KPIs”, which put first: Goal “Ship the partner portal” is 40% complete (100% expected by today) and was due 2026-10-01.',
    );
    expect(text).not.toContain('You asked about');
    expectWellFormed(text);
  });

  it('after an approval, the final step restates the drafted plan as approved', () => {
    const plan = step(draft, {});
    const text = step(
      finalise,
      {
        previous: [
          { name: draft.name, output: plan },
          { name: 'Approval', output: 'yes' },
        ],
      },
      [],
    );
    const p = paragraphs(text);
    expect(p[0]).toBe('Your answer to “Approval” was “yes”, so the plan stands as drafted.');
    expect(p[1]).toMatch(/^In short: As of 2026-11-24 you have 2 open goals/);
    expect(p[2]).toMatch(
      /^1\. Re-plan Goal “Ship the partner portal”.*\n2\. Agree the actions that move EU customers signed/,
    );
    expectWellFormed(text);
  });

  it('a change request is applied to the drafted plan', () => {
    const plan = step(draft, {});
    const text = step(
      finalise,
      {
        previous: [
          { name: draft.name, output: plan },
          { name: 'Approval', output: 'Move the portal to Q1' },
        ],
      },
      [],
    );
    expect(paragraphs(text)[0]).toBe(
      'Your answer to “Approval” was “Move the portal to Q1”, and I applied it to the plan.',
    );
    expect(text).toContain(
      '1. Re-plan Goal “Ship the partner portal”: set a realistic date or close it (due 2027-03-31).',
    );
    expectWellFormed(text);
  });

  it('a write-up sums up every earlier step and keeps their points', () => {
    const findings = step(assess, {});
    const plan = step(draft, { previous: [{ name: assess.name, output: findings }] });
    const text = step(
      { name: 'Write the executive summary', description: 'Write a one-page executive summary.' },
      {
        previous: [
          { name: assess.name, output: findings },
          { name: draft.name, output: plan },
        ],
      },
      [],
      { name: 'Writer', role: 'Executive communications writer', goal: 'Write' },
    );
    expect(paragraphs(text)[0]).toBe(
      'In short: As of 2026-11-24 you have 2 open goals (1 at risk), and 2 open tasks (1 overdue).',
    );
    expect(text).toContain('3. Finish or re-date Task “Prepare the board deck”, which was due 2026-11-01.');
    expect(text).toContain('_Offline engine — written as the Writer (Executive communications writer)');
    expectWellFormed(text);
  });

  it('a step after a tool step quotes the data it returned, never as a person’s answer', () => {
    const previous = [{ name: 'Fetch rates', output: '{"eur_usd":1.08}' }];
    const summary = step({ name: 'Write up', description: 'Write it up.' }, { previous }, []);
    expect(paragraphs(summary)[0]).toBe('In short: “Fetch rates” returned `{"eur_usd":1.08}`.');
    const next = step(assess, { previous });
    expect(next).toContain('This builds on what “Fetch rates” returned: `{"eur_usd":1.08}`.');
    expect(next).not.toContain('Your answer');
  });

  it('a step with no data says so plainly, naming the step', () => {
    const text = step({ name: 'Gather facts', description: 'Collect facts about the market.' }, {}, [
      toolResult('internal_search', { query: 'market', hits: [] }),
    ]);
    expect(paragraphs(text)[0]).toBe('I found no records in your workspace for “Gather facts” yet.');
    expectWellFormed(text);
  });
});

describe('offline strategic advice', () => {
  const advise = (lastUserText = '') =>
    offlineHandlers['strategic-advice'](input({ data: SNAPSHOT, lastUserText }));

  it('states the biggest gap first with its numbers, then the state, the sections, the actions and the sources', () => {
    const text = advise();
    const p = paragraphs(text);
    expect(p[0]).toBe('# Close the gap on EU customers signed');
    expect(p[1]).toBe(OFFLINE_NOTICE);
    expect(p[2]).toBe(
      'The biggest gap is **EU customers signed** on goal “EU expansion”: 1 of 5 customers, 20% of target where 67% was expected by today.',
    );
    expect(p[3]).toBe(
      'As of 2026-11-24 you have 2 open goals (1 at risk) with 1 KPI behind plan, 1 overdue goal and 2 open tasks (1 overdue, 1 without an owner).',
    );
    // The goals API's risk reasons, word for word.
    expect(text).toContain(
      '## Goals at risk\n\n- Goal “EU expansion”: 20% done, 67% expected by today; KPI “EU customers signed” is ' +
        'forecast at 2 customers by the due date, short of its target of 5 customers.',
    );
    expect(text).toContain('## KPI gaps');
    expect(text).toContain(
      '- Task “Hire a DACH sales lead” — Medium priority, not started, due 2026-12-15, no owner yet.',
    );
    expect(text).toContain('3. Finish or re-date the overdue Task “Prepare the board deck”.');
    expect(text).toContain('4. Give Task “Hire a DACH sales lead” an owner.');
    expect(text).toContain('- Note “Board prep call” (2026-11-20)');
    expectWellFormed(text.replace(/^# .*\n/, ''));
  });

  it('for an empty workspace it says so and recommends setting the first goals', () => {
    const empty = {
      ...SNAPSHOT,
      goals: [],
      at_risk_goals: [],
      lagging_kpis: [],
      overdue_goals: [],
      open_tasks: [],
      overdue_tasks: [],
      unassigned_tasks: [],
      notes: [],
      counts: {
        goals: 0,
        at_risk_goals: 0,
        lagging_kpis: 0,
        overdue_goals: 0,
        open_tasks: 0,
        overdue_tasks: 0,
        unassigned_tasks: 0,
        notes: 0,
      },
    };
    const text = offlineHandlers['strategic-advice'](input({ data: empty }));
    const p = paragraphs(text);
    expect(p[0]).toBe('# Set your first strategic goals');
    expect(p[2]).toBe('There are no strategic goals to measure yet.');
    expect(p[3]).toBe('As of 2026-11-24 you have no open goals and no open tasks.');
    expect(text).toContain(
      '1. Define two or three strategic goals with measurable KPIs in the Strategy Center.',
    );
    expectWellFormed(text.replace(/^# .*\n/, ''));
  });

  it('in the strategic flow it builds on what the review step put first', () => {
    const review =
      'As of 2026-11-24 you have 2 open goals. What stands out:\n\n- Goal “Ship the partner portal” is 40% complete and was due 2026-10-01.\n\n_Offline engine — written as the Analyst_';
    const text = advise(
      `Workspace snapshot (JSON):\n{}\n\nEarlier steps of this flow:\n\n### Review goals and KPIs\n${review}\n\nWrite the strategic advice.`,
    );
    expect(paragraphs(text)[3]).toContain(
      'The review (“Review goals and KPIs”) put this first: Goal “Ship the partner portal” is 40% complete and was due 2026-10-01.',
    );
    expect(advise()).not.toContain('The review');
  });
});

describe('offline task suggestions', () => {
  it('each suggestion names its record and numbers and reads as finished sentences', () => {
    const { suggestions } = JSON.parse(
      offlineHandlers['task-suggestions'](
        input({ data: { snapshot: SNAPSHOT, exclude_source_keys: [], exclude_title_keys: [], max: 5 } }),
      ),
    ) as { suggestions: { title: string; description: string; llm_context: string }[] };
    expect(suggestions.map((s) => s.title)).toEqual([
      'Close the EU customers signed gap on “EU expansion”',
      'Re-plan the overdue goal “Ship the partner portal”',
      'Find an owner for “Hire a DACH sales lead”',
    ]);
    expect(suggestions[0].description).toMatch(
      /^EU customers signed is at 1 of 5 customers \(20% of target, 67% expected by today\)\./,
    );
    expect(suggestions[2].description).toMatch(
      /^Task “Hire a DACH sales lead” \(Medium priority, To Do, due 2026-12-15\) has nobody assigned\./,
    );
    for (const s of suggestions)
      for (const text of [s.title, s.description, s.llm_context]) expectWellFormed(text);
  });
});

describe('offline comms suggestions', () => {
  const reply = (
    incoming: string | string[],
    o: {
      before?: { text: string; own: boolean }[];
      lastInteraction?: { date: string; summary: string };
    } = {},
  ) =>
    offlineHandlers['comms-reply'](
      input({
        data: {
          recipient_name: 'Olivia Tester',
          sender_name: 'Sofia Rossi',
          messages: [
            ...(o.before ?? []).map((m) => ({ sender_name: m.own ? 'Olivia Tester' : 'Sofia Rossi', ...m })),
            ...[incoming].flat().map((text) => ({ sender_name: 'Sofia Rossi', text, own: false })),
          ],
          contact: o.lastInteraction
            ? { name: 'Sofia Rossi', role: 'VP of Sales', notes: null, last_interaction: o.lastInteraction }
            : null,
        },
      }),
    );

  const cases: [string, string][] = [
    [
      'Q3 update: we closed 42 deals and ARR is €1.2M, up 15% on Q2.',
      'Thanks for the numbers, Sofia — noted: 42 deals, €1.2M and 15%.',
    ],
    [
      'Can we schedule a call about the Q3 budget?',
      'Happy to meet, Sofia. Would tomorrow at 10:00 work for you?',
    ],
    ['Could you send me the board deck?', "Sure, Sofia — I'll get you the board deck today."],
    [
      'What is the status of the Q3 budget?',
      "I don't have the answer to hand, Sofia. I'll send it to you by tomorrow at noon.",
    ],
    [
      'Should we move the offsite to March?',
      "Yes, Sofia, let's go ahead. If you see a reason not to, tell me by tomorrow and we'll decide together.",
    ],
    ['Could you send me the board deck by Friday?', "Sure, Sofia — I'll get you the board deck by Friday."],
    ['Please share your slides.', "Will do, Sofia — I'll get you my slides today."],
    [
      'Please review the pricing memo before the board meeting.',
      "Will do, Sofia — I'll do that before the board meeting.",
    ],
    ['Thanks for the help!', "You're welcome, Sofia!"],
    ['The launch is on track.', "Thanks, Sofia — noted. I'll follow up shortly."],
    [
      'We have a blocker on the Falcon deal.',
      "Thanks for flagging this, Sofia. Let's take it first thing. What do you need from me?",
    ],
    [
      'Pipeline is €3.4M with 12 new logos. Do you agree we push DACH next?',
      "Thanks for the numbers, Sofia — noted: €3.4M and 12 new logos. Yes, let's go ahead. If you see a reason not to, tell me by tomorrow and we'll decide together.",
    ],
  ];
  it.each(cases)('answers “%s”', (message, expected) => {
    const text = reply(message);
    expect(text).toBe(expected);
    expect(text).not.toMatch(/[*_#`]/); // a plain-text draft, no markdown
    expectWellFormed(text);
  });

  /** Any six words in a row of the message, found again in the reply: the message echoed back. */
  const echoes = (message: string, text: string) => {
    const w = message.toLowerCase().match(/[\p{L}\p{N}']+/gu) ?? [];
    const said = ` ${(text.toLowerCase().match(/[\p{L}\p{N}']+/gu) ?? []).join(' ')} `;
    return w.slice(0, -5).some((_, i) => said.includes(` ${w.slice(i, i + 6).join(' ')} `));
  };

  it.each(cases)('never echoes “%s” back', (message) => {
    expect(echoes(message, reply(message))).toBe(false);
  });

  it('acknowledges a deadline the message sets', () => {
    expect(reply('We need the signed contract by end of day.')).toBe(
      "Thanks, Sofia — I'll make sure it's done by end of day.",
    );
    expect(reply('The deadline is 12 December for the audit pack.')).toBe(
      "Thanks, Sofia — I'll make sure it's done by 12 December.",
    );
  });

  it('never asks for numbers the message already gave', () => {
    const text = reply('Status report: revenue 1.4M, churn 3%.');
    expect(text).toContain('1.4M and 3%');
    expect(text).not.toMatch(/numbers\?|send .*numbers/i);
  });

  it('answers everything said since the recipient last wrote, not older messages', () => {
    const text = reply('Thanks!', {
      before: [
        { text: 'Can you send me the deck?', own: false },
        { text: 'Sent.', own: true },
      ],
    });
    expect(text).toBe("You're welcome, Sofia!");
    const both = reply(['Q3 report: revenue 1.4M.', 'Can we meet about it on Friday?']);
    expect(both).toBe(
      'Thanks for the numbers, Sofia — noted: 1.4M. Happy to meet. Would tomorrow at 10:00 work for you?',
    );
  });

  it('mentions the last noted interaction only when it is about the same thing', () => {
    const lastInteraction = { date: '2026-11-02', summary: 'Agreed the Q3 budget split' };
    expect(reply('What is the status of the Q3 budget?', { lastInteraction })).toContain(
      'It follows on from what we discussed on 2026-11-02 (Agreed the Q3 budget split).',
    );
    expect(reply('Thanks for the help!', { lastInteraction })).not.toContain('2026-11-02');
  });
});
