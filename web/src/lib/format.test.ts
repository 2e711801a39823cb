import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  formatDate,
  formatDateTime,
  formatDay,
  formatDayLong,
  formatRecent,
  formatStampForName,
  formatTime,
  resetDateFormatters,
} from './format';

function inLocale(lang: string) {
  vi.spyOn(navigator, 'languages', 'get').mockReturnValue([lang]);
  resetDateFormatters();
}

afterEach(() => {
  vi.restoreAllMocks();
  resetDateFormatters();
});

describe('date formatting (issue 47 item 4)', () => {
  it("follows the browser's locale: day-month in en-GB, month-day in en-US, numeric in German", () => {
    const local = new Date(2026, 10, 29, 14, 5);
    inLocale('en-GB');
    expect(formatDay('2026-11-29')).toBe('29 Nov 2026');
    expect(formatDate(local.toISOString())).toBe('29 Nov 2026');
    expect(formatDateTime(local.toISOString())).toBe('29 Nov 2026, 14:05');
    expect(formatTime(local.toISOString())).toBe('14:05');
    expect(formatDayLong('2026-11-29')).toMatch(/^Sunday,? 29 November 2026$/);
    inLocale('en-US');
    expect(formatDay('2026-11-29')).toBe('Nov 29, 2026');
    expect(formatTime(local.toISOString())).toMatch(/^2:05\sPM$/);
    inLocale('de-DE');
    expect(formatDay('2026-11-29')).toBe('29.11.2026');
  });

  it('reads a YYYY-MM-DD day as that calendar day, whatever the time zone', () => {
    inLocale('en-GB');
    expect(formatDay('2026-12-31T00:00:00Z')).toBe('31 Dec 2026');
    expect(formatDay('2026-01-01')).toBe('1 Jan 2026');
  });

  it('shows an em dash for a missing or unreadable value', () => {
    for (const f of [formatDate, formatDay, formatDateTime, formatDayLong]) {
      expect(f(null)).toBe('—');
      expect(f(undefined)).toBe('—');
      expect(f('not a date')).toBe('—');
    }
    expect(formatTime('not a date')).toBe('');
  });

  it("shows today's moments as a time and older ones as a date", () => {
    inLocale('en-GB');
    const now = new Date(2026, 10, 29, 18, 0);
    expect(formatRecent(new Date(2026, 10, 29, 9, 30).toISOString(), now)).toBe('09:30');
    expect(formatRecent(new Date(2026, 10, 28, 9, 30).toISOString(), now)).toBe('28 Nov 2026');
  });

  it('builds each formatter once and reuses it (building one loads locale data)', () => {
    const Real = Intl.DateTimeFormat;
    const built = vi
      .spyOn(Intl, 'DateTimeFormat')
      // A function, not an arrow: the code under test calls it with `new`.
      .mockImplementation(function (
        this: unknown,
        ...args: ConstructorParameters<typeof Intl.DateTimeFormat>
      ) {
        return new Real(...args);
      } as unknown as typeof Intl.DateTimeFormat);
    for (let i = 0; i < 5; i++) {
      formatDay('2026-03-01');
      formatDate('2026-02-01T12:00:00.000Z');
    }
    expect(built).toHaveBeenCalledTimes(1);
  });

  it('writes a date into a stored name in one unambiguous form, in any locale', () => {
    inLocale('en-US');
    expect(formatStampForName(new Date(2026, 2, 12, 9, 5))).toBe('12 Mar 2026, 09:05');
  });
});
