import { describe, expect, it } from 'vitest';
import { offlineHandlers } from './handlers/index.ts';
import { handlerInput } from './offline-fixtures.ts';
import { expectWellFormed } from './offline-test-kit.ts';
import { parseDay } from './plan-edits.ts';

// Issue 47 item 2: a person's answer at a human step is applied to the drafted plan.

const drafted =
  'The plan, most pressing first:\n\n' +
  '1. Agree the actions that move Churn rate for Goal “Reduce churn”, now 40% of target.\n' +
  '2. Finish or re-date Task “Prepare the board deck”, which was due 2026-11-01.\n\n' +
  '_Offline engine — written as the Planner (Chief of staff) from your workspace data; no AI provider is configured._';

const finalStep = (answer: string, viaWaitStep = false) =>
  offlineHandlers['crew-task'](
    handlerInput({
      data: {
        run_name: 'Weekly plan',
        position: 2,
        task: { name: 'Finalise the plan', description: 'Write the final plan.', expected_output: null },
        agent: null,
        inputs: {},
        previous: [
          { name: 'Draft the plan', output: drafted },
          ...(viaWaitStep ? [{ name: 'Approval', output: answer }] : []),
        ],
        human_answer: viaWaitStep ? null : answer,
        today: '2026-11-24', // a Tuesday
      },
    }),
  );

describe('a person’s answer applied to the plan', () => {
  it('replaces the item named, with its owner and due date', () => {
    const text = finalStep('No. Replace the churn item with the pricing review, owned by Leo, due Friday');
    expect(text).toContain(
      'The plan now reads:\n\n' +
        '1. Pricing review (owner: Leo, due 2026-11-27).\n' +
        '2. Finish or re-date Task “Prepare the board deck”, which was due 2026-11-01.',
    );
    expect(text).not.toContain('Churn rate');
    expect(text).not.toContain('I could not apply');
    expectWellFormed(text);
  });

  it('removes, adds, assigns and re-dates, after a wait-for-human step too', () => {
    const text = finalStep(
      'Remove the board deck item. Add a hiring review due 4 December. Assign the churn item to Priya.',
      true,
    );
    expect(text).toContain('Your answer to “Approval” was');
    expect(text).toContain(
      '1. Agree the actions that move Churn rate for Goal “Reduce churn”, now 40% of target (owner: Priya).\n' +
        '2. Hiring review (due 2026-12-04).',
    );
    expect(text).not.toContain('board deck”, which');
  });

  it('says plainly what it could not apply, and applies the rest', () => {
    const text = finalStep('Remove the marketing item; move the board deck to someday');
    expect(text).toContain('but I could not apply it to the plan.');
    expect(text).toContain(
      'I could not apply: “Remove the marketing item” (no item of the plan matches it); ' +
        '“move the board deck to someday” (“someday” is not a date I can read).',
    );
    expect(text).toContain('1. Agree the actions that move Churn rate');
  });

  it('an approval keeps the plan as drafted', () => {
    expect(finalStep('Yes, go ahead')).toContain('so the plan stands as drafted');
  });

  it('reads weekdays and dates against today', () => {
    expect(parseDay('Friday', '2026-11-24')).toBe('2026-11-27');
    expect(parseDay('Tuesday', '2026-11-24')).toBe('2026-12-01');
    expect(parseDay('tomorrow', '2026-11-24')).toBe('2026-11-25');
    expect(parseDay('Jan 5', '2026-11-24')).toBe('2027-01-05');
    expect(parseDay('Q1', '2026-11-24')).toBe('2027-03-31');
    expect(parseDay('Q4', '2026-11-24')).toBe('2026-12-31');
    expect(parseDay('whenever', '2026-11-24')).toBeNull();
  });
});
