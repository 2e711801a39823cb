import { describe, expect, it } from 'vitest';
import { withUnit } from './goal-numbers.ts';
import { dayText, unitAfter, withDayTexts } from './wording.ts';

describe('server-written days and quantities', () => {
  it('writes a day as the app prints it, from a date or a timestamp', () => {
    expect(dayText('2026-11-29')).toBe('29 Nov 2026');
    expect(dayText('2026-01-05T23:10:00.000Z')).toBe('5 Jan 2026');
    expect(dayText('soon')).toBe('soon');
    expect(withDayTexts('no check-in since 2026-05-20, due 2026-12-31')).toBe(
      'no check-in since 20 May 2026, due 31 Dec 2026',
    );
  });

  it('gives a plural unit its singular at exactly 1, and leaves symbols alone', () => {
    expect(withUnit(1, 'customers')).toBe('1 customer');
    expect(withUnit(1.001, 'customers')).toBe('1 customer');
    expect(withUnit(2, 'customers')).toBe('2 customers');
    expect(withUnit(0, 'customers')).toBe('0 customers');
    expect(withUnit(1, 'new hires')).toBe('1 new hire');
    expect(unitAfter(1, 'deliveries')).toBe('delivery');
    expect(unitAfter(1, 'boxes')).toBe('box');
    for (const unit of ['k€', '%', 'EUR', 'status', 'NPS', 'hrs']) {
      expect(unitAfter(1, unit)).toBe(unit === 'hrs' ? 'hr' : unit);
    }
    expect(withUnit(1, null)).toBe('1');
  });
});
