import {
  ZCreateAdviceRequest,
  ZCreateContactRequest,
  ZCreateGoalRequest,
  ZCreateJournalRequest,
  ZCreateTaskRequest,
  ZInteractionRequest,
} from '@cc/contract';
import { createAdvice } from '../../modules/advice/advice.service.ts';
import { addInteraction, createContact } from '../../modules/contacts/contacts.service.ts';
import { createGoal } from '../../modules/goals/goals.service.ts';
import { createJournal } from '../../modules/journals/journals.service.ts';
import { createTask } from '../../modules/tasks/tasks.service.ts';
import type { AuthUser } from '../../platform/auth/authenticate.ts';
import type { AppContext } from '../../platform/context.ts';

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

/**
 * A believable week in the demo organization, created through the same services as the API so the
 * rules (visibility, sharing, progress) hold: goals with KPIs, tasks across people and priorities,
 * notes, contacts with interactions, and one piece of strategic advice.
 */
export async function seedDemoWorkspace(
  ctx: AppContext,
  people: { ceo: AuthUser; maya: AuthUser; leo: AuthUser },
  orgId: string,
): Promise<void> {
  const { ceo, maya, leo } = people;

  const goals = [
    {
      title: 'Grow annual recurring revenue to $12M',
      description: 'Expand enterprise accounts and lift net revenue retention.',
      // Goals are entered part-way through their plan: each says where its straight line starts.
      start_date: day(-245),
      due_date: day(120),
      status: 'in_progress',
      kpis: [
        { name: 'ARR', current_value: 8.4, target_value: 12, unit: '$M' },
        { name: 'Net revenue retention', current_value: 104, target_value: 115, unit: '%' },
      ],
    },
    {
      title: 'Launch the European expansion',
      description: 'Open the Amsterdam office and sign the first five EU customers.',
      // Half-way through its plan with a quarter done: the demo's goal at risk, so advice and task
      // suggestions have something to act on.
      start_date: day(-150),
      due_date: day(150),
      status: 'new',
      kpis: [
        { name: 'EU customers signed', current_value: 1, target_value: 5, unit: 'customers' },
        { name: 'Key hires in place', current_value: 2, target_value: 6, unit: 'people' },
      ],
    },
    {
      title: 'Reduce customer churn below 5%',
      description: 'Onboarding revamp and proactive success reviews.',
      start_date: day(-120),
      due_date: day(60),
      status: 'in_progress',
      kpis: [
        { name: 'Monthly churn', current_value: 3, target_value: 5, unit: '%', direction: 'lower_is_better' },
      ],
    },
  ];
  for (const g of goals) {
    await createGoal(ctx, ceo, ZCreateGoalRequest.parse({ ...g, organization_id: orgId }));
  }

  const tasks = [
    {
      by: ceo,
      title: 'Finalize Q3 board deck',
      priority: 'Urgent',
      status: 'In Progress',
      due: 2,
      to: ceo.id,
    },
    {
      by: ceo,
      title: 'Approve Amsterdam office lease',
      priority: 'High',
      status: 'To Do',
      due: 5,
      to: maya.id,
    },
    {
      by: ceo,
      title: 'Review pricing proposal for enterprise tier',
      priority: 'High',
      status: 'Review',
      due: 7,
      to: leo.id,
    },
    {
      by: maya,
      title: 'Hire EU country manager',
      priority: 'Medium',
      status: 'In Progress',
      due: 21,
      to: maya.id,
    },
    {
      by: leo,
      title: 'Close the books for October',
      priority: 'Medium',
      status: 'Done',
      due: -3,
      to: leo.id,
    },
    {
      by: leo,
      title: 'Renegotiate cloud contract',
      priority: 'Low',
      status: 'Bottleneck',
      due: 30,
      to: leo.id,
    },
  ];
  for (const t of tasks) {
    await createTask(
      ctx,
      t.by,
      ZCreateTaskRequest.parse({
        title: t.title,
        priority: t.priority,
        status: t.status,
        due_date: day(t.due),
        assigned_to_user_id: t.to,
        shared_org_ids: [orgId],
      }),
    );
  }

  const notes = [
    {
      offset: 0,
      content:
        '## Weekly priorities\n\n- Board deck narrative: growth **and** efficiency\n- Check in with Maya on the lease',
    },
    {
      offset: -1,
      content:
        'Call with Northstar Capital went well. They want churn numbers by cohort before the next meeting.',
    },
    { offset: -4, content: 'Idea: quarterly customer advisory board. Start with five design partners.' },
  ];
  for (const n of notes) {
    await createJournal(
      ctx,
      ceo,
      ZCreateJournalRequest.parse({ content: n.content, entry_date: day(n.offset) }),
    );
  }

  const contacts = [
    {
      name: 'Priya Raman',
      role: 'Partner, Northstar Capital',
      emails: ['priya@northstar.example'],
      phones: ['+1 415 555 0134'],
      notes: 'Lead investor. Prefers concise updates with cohort metrics.',
      interaction: {
        date: day(-1),
        summary: 'Quarterly investor update',
        notes: 'Asked for churn by cohort.',
      },
    },
    {
      name: 'Maya Patel',
      role: 'Head of Operations',
      emails: ['maya@demo.example'],
      phones: [],
      notes: 'Owns the EU expansion workstream.',
    },
    {
      name: 'Tom Becker',
      role: 'CEO, Helix Logistics',
      emails: ['tom@helix.example', 'office@helix.example'],
      phones: ['+49 30 5550 1200'],
      notes: 'Potential first German customer.',
      interaction: { date: day(-6), summary: 'Intro call', notes: 'Interested in a pilot in Q1.' },
    },
  ];
  for (const c of contacts) {
    const { interaction, ...fields } = c;
    const created = await createContact(
      ctx,
      ceo,
      ZCreateContactRequest.parse({ ...fields, organization_id: orgId, shared_org_ids: [orgId] }),
    );
    if (interaction) await addInteraction(ctx, ceo, created.id, ZInteractionRequest.parse(interaction));
  }

  await createAdvice(
    ctx,
    ceo,
    ZCreateAdviceRequest.parse({
      advice_title: 'Focus the quarter on retention before expansion',
      content:
        '### Where you stand\n\n- **ARR** is at 70% of target and **net revenue retention** at 90% of target.\n- The EU expansion has one of five customers signed.\n\n### Recommendation\n\n1. Put the churn programme first: every point of retention compounds.\n2. Gate the Amsterdam lease on two more signed EU pilots.\n3. Ask Leo for the enterprise pricing review this week; it unblocks both goals.',
      organization_id: orgId,
    }),
  );
}
