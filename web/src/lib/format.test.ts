import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatDate, formatDateTime, formatDay } from './format';

afterEach(() => vi.restoreAllMocks());

describe('date formatting', () => {
  it('shows day, short month and year, and a 24-hour time in the local time zone', () => {
    expect(formatDay('2026-03-01')).toBe('1 Mar 2026');
    expect(formatDay('2026-12-31T00:00:00Z')).toBe('31 Dec 2026');
    const local = new Date(2026, 1, 1, 9, 5);
    expect(formatDate(local.toISOString())).toBe('1 Feb 2026');
    expect(formatDateTime(local.toISOString())).toBe('1 Feb 2026, 09:05');
  });

  it('shows an em dash for a missing or unreadable value', () => {
    for (const f of [formatDate, formatDay, formatDateTime]) {
      expect(f(null)).toBe('—');
      expect(f(undefined)).toBe('—');
      expect(f('not a date')).toBe('—');
    }
  });

  it('never builds an Intl formatter (its locale data is a long task on first use)', () => {
    const built = vi.spyOn(Intl, 'DateTimeFormat');
    formatDay('2026-03-01');
    formatDate('2026-02-01T12:00:00.000Z');
    formatDateTime('2026-02-01T12:00:00.000Z');
    expect(built).not.toHaveBeenCalled();
  });
});
