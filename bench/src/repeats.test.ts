import { expect, it } from 'vitest';
import { eachRepeat, medianRepeat } from './repeats.ts';

it('medianRepeat takes the middle repeat by its figure, and the upper middle of an even count', () => {
  const runs = [{ p99: 78 }, { p99: 48 }, { p99: 49 }];
  expect(medianRepeat(runs, (r) => r.p99)).toBe(runs[2]);
  expect(medianRepeat([{ p99: 30 }, { p99: 60 }], (r) => r.p99).p99).toBe(60);
  expect(medianRepeat([{ p99: 7 }], (r) => r.p99).p99).toBe(7);
  expect(() => medianRepeat([], (r: { p99: number }) => r.p99)).toThrow(/no repeat/);
});

it('eachRepeat lists the figures in the order measured', () => {
  expect(eachRepeat([78, 48, 49])).toBe('78 / 48 / 49 ms');
});
