import { afterEach, describe, expect, it, vi } from 'vitest';
import { resetDateFormatters } from '../../lib/format';
import { threadDate } from './components/thread-list';

afterEach(() => {
  vi.restoreAllMocks();
  resetDateFormatters();
});

describe('the thread list dates (issue 47 item 4)', () => {
  it("shows today's threads by time and older ones by date, in the reader's locale", () => {
    const now = new Date(2026, 10, 29, 18, 0);
    const older = new Date(2026, 2, 3, 9, 30).toISOString();
    vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['en-GB']);
    resetDateFormatters();
    expect(threadDate(new Date(2026, 10, 29, 9, 30).toISOString(), now)).toBe('09:30');
    expect(threadDate(older, now)).toBe('3 Mar 2026');
    vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['en-US']);
    resetDateFormatters();
    expect(threadDate(older, now)).toBe('Mar 3, 2026');
  });
});
