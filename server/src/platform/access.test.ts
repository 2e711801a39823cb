import { describe, expect, it } from 'vitest';
import { isPlatformAdmin, ownedBy } from './access.ts';
import { AppError } from './errors.ts';

function statusOf(run: () => unknown): { status: number; detail: unknown } | 'returned' {
  try {
    run();
    return 'returned';
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    return { status: err.statusCode, detail: err.detail };
  }
}

describe('the owner-only rule', () => {
  const brief = { id: 'b1', user_id: 'owner', title: 'Monday' };

  it("gives the owner their record and answers anyone else's, or none, as missing (404)", () => {
    expect(ownedBy(brief, 'owner', 'Brief not found')).toBe(brief);
    expect(statusOf(() => ownedBy(brief, 'someone else', 'Brief not found'))).toEqual({
      status: 404,
      detail: 'Brief not found',
    });
    expect(statusOf(() => ownedBy(undefined, 'owner', 'Brief not found'))).toEqual({
      status: 404,
      detail: 'Brief not found',
    });
  });
});

it('names the platform administrator by level alone', () => {
  expect(['admin', 'ceo', 'user', 'waitlisted', null].map((l) => isPlatformAdmin({ user_level: l }))).toEqual(
    [true, false, false, false, false],
  );
});
