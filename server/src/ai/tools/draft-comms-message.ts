import { tool } from 'ai';
import { z } from 'zod';

export interface CommsDraft {
  status: 'draft';
  note: string;
  recipient: string | null;
  text: string;
}

/** Composes a message draft for the user to edit and send; it never sends anything. */
export const draftCommsMessageTool = () =>
  tool({
    description:
      'Draft a short message to a colleague or contact for the user to review and send themselves. ' +
      'Nothing is sent.',
    inputSchema: z.object({
      recipient: z.string().max(200).optional(),
      purpose: z.string().min(1).max(500),
      points: z.array(z.string().max(500)).max(10).optional(),
    }),
    execute: async ({ recipient, purpose, points }): Promise<CommsDraft> => {
      const greeting = recipient ? `Hi ${recipient},` : 'Hi,';
      const body = [purpose.trim(), ...(points ?? []).map((p) => `- ${p.trim()}`)].join('\n');
      return {
        status: 'draft',
        note: 'Not sent: the user reviews and sends it.',
        recipient: recipient ?? null,
        text: `${greeting}\n\n${body}\n\nThanks,`,
      };
    },
  });
