import { TASK_PRIORITIES } from '@cc/contract';
import { tool } from 'ai';
import { z } from 'zod';

export interface TaskProposal {
  status: 'proposed';
  /** Mutating tools only propose: a person creates the task from the proposal. */
  note: string;
  task: { title: string; description: string | null; priority: string; due_date: string | null };
}

/** Returns a task proposal for the user to approve; it never writes a task. */
export const proposeTaskTool = () =>
  tool({
    description:
      'Propose a task for the user to review. Nothing is created: the proposal is shown to the user, ' +
      'who decides whether to add it.',
    inputSchema: z.object({
      title: z.string().min(1).max(200),
      description: z.string().max(2000).optional(),
      priority: z.enum(TASK_PRIORITIES).optional(),
      due_date: z
        .string()
        .regex(/^\d{4}-\d{2}-\d{2}$/)
        .optional()
        .describe('YYYY-MM-DD'),
    }),
    execute: async (input): Promise<TaskProposal> => ({
      status: 'proposed',
      note: 'Not created: the user must approve this task.',
      task: {
        title: input.title.trim(),
        description: input.description?.trim() || null,
        priority: input.priority ?? 'Medium',
        due_date: input.due_date ?? null,
      },
    }),
  });
