import { describe, expect, it } from 'vitest';
import { approvingAnswerOf } from './run-questions.ts';

describe('the answer that approves a run question', () => {
  it('is the quoted answer of a question that asks for an approval', () => {
    expect(
      approvingAnswerOf('Do you approve this plan? Answer "yes" or describe the changes you want.'),
    ).toBe('yes');
    expect(approvingAnswerOf('Approve the draft? Reply “go ahead” to send it.')).toBe('go ahead');
  });

  it('is none for a question that names no approving answer, or asks for no approval', () => {
    expect(approvingAnswerOf('Which quarter?')).toBeNull();
    expect(approvingAnswerOf('Do you approve this plan?')).toBeNull();
    expect(approvingAnswerOf('Answer "Q3" or "Q4".')).toBeNull();
    expect(approvingAnswerOf(null)).toBeNull();
  });
});
