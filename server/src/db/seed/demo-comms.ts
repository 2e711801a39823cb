import { randomBytes } from 'node:crypto';
import { registerScriptedColleague, seedConversation } from '../../modules/comms/comms.demo-replies.ts';
import { addManagedMember } from '../../modules/organizations/memberships.service.ts';
import { createAccount } from '../../modules/users/users.service.ts';
import type { AuthUser } from '../../platform/auth/authenticate.ts';
import type { AppContext } from '../../platform/context.ts';

/**
 * Demo colleagues whose replies are scripted on the server (800-2000 ms), so a newcomer sees the
 * Comms Center alive. They cannot sign in (a random password nobody knows).
 */
export const DEMO_COLLEAGUES = [
  {
    email: 'sofia@demo.example',
    first_name: 'Sofia',
    last_name: 'Rossi',
    role: 'VP of Sales',
    script: [
      'Thanks! Pipeline is at $4.2M for the quarter — two enterprise deals are in legal review.',
      "Good point. I'll loop in the account team and send you a summary by end of day.",
      'The Helix renewal looks solid; they asked about a multi-year discount.',
      "Agreed. Let's review the forecast together on Thursday.",
    ],
  },
  {
    email: 'james@demo.example',
    first_name: 'James',
    last_name: 'Okafor',
    role: 'Chief Technology Officer',
    script: [
      'Got it. The platform migration is on track for the end of the month.',
      "I'll check with the team and come back to you with an estimate.",
      'Security review passed this morning — no critical findings.',
      'Sounds good. I will put it on the agenda for the next architecture sync.',
    ],
  },
] as const;

const ago = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

/** Adds the demo colleagues to the demo organization and two conversations with history. */
export async function seedDemoComms(
  ctx: AppContext,
  people: { ceo: AuthUser; maya: AuthUser },
  orgId: string,
): Promise<void> {
  const { ceo, maya } = people;
  const ids: string[] = [];
  for (const c of DEMO_COLLEAGUES) {
    const id = await createAccount(ctx, {
      email: c.email,
      password: randomBytes(24).toString('base64url'),
      user_level: 'user',
      first_name: c.first_name,
      last_name: c.last_name,
      role: c.role,
      organization_id: orgId,
      email_verified: true,
    });
    await addManagedMember(ctx, orgId, { id, email: c.email }, 'user');
    await registerScriptedColleague(ctx, id, [...c.script]);
    ids.push(id);
  }
  const [sofia] = ids;
  const olivia = { id: ceo.id, name: 'Olivia Chen' };
  await seedConversation(ctx, {
    participantIds: [ceo.id, sofia],
    messages: [
      { sender: olivia, text: 'Sofia, how are the enterprise deals looking this week?', at: ago(180) },
      {
        sender: { id: sofia, name: 'Sofia Rossi' },
        text: 'Two are close. Northstar wants a call with you before signing.',
        at: ago(175),
      },
      { sender: olivia, text: 'Happy to join. Send me a few slots.', at: ago(170) },
      {
        sender: { id: sofia, name: 'Sofia Rossi' },
        text: 'Will do — can we schedule it for Thursday morning?',
        at: ago(30),
      },
    ],
    suggestion: { userId: ceo.id, text: 'Thursday morning works. Let’s do 10:00 — please send the invite.' },
  });
  await seedConversation(ctx, {
    participantIds: [ceo.id, maya.id],
    messages: [
      {
        sender: { id: maya.id, name: 'Maya Patel' },
        text: 'The onboarding revamp is live for new customers.',
        at: ago(1440),
      },
      { sender: olivia, text: 'Great work. Let’s track churn weekly from now on.', at: ago(1430) },
    ],
  });
}
