import { describe, expect, it } from 'vitest';
import { InFlight } from './in-flight.ts';

describe('InFlight: requests awaiting replies, by number', () => {
  it('gives each reply the value added under its number, in any order, and forgets it', () => {
    const f = new InFlight<string>(4);
    f.add(0, 'a');
    f.add(1, 'b');
    f.add(2, 'c');
    expect(f.size).toBe(3);
    expect(f.take(1)).toBe('b');
    expect(f.take(1)).toBeUndefined();
    expect(f.take(0)).toBe('a');
    expect(f.take(2)).toBe('c');
    expect(f.size).toBe(0);
  });

  it('reuses a slot once its reply came, and refuses it while an older number still holds it', () => {
    const f = new InFlight<string>(2);
    f.add(0, 'a');
    f.add(1, 'b');
    // 2 shares the slot of 0, still awaited
    expect(f.free(2)).toBe(false);
    expect(() => f.add(2, 'c')).toThrow(/held by 0/);
    // a reply for a number that is not awaited (2) does not take 0's value
    expect(f.take(2)).toBeUndefined();
    expect(f.take(0)).toBe('a');
    expect(f.free(2)).toBe(true);
    f.add(2, 'c');
    expect(f.take(2)).toBe('c');
    expect(f.take(1)).toBe('b');
  });

  it('hands over everything still awaited when the worker goes', () => {
    const f = new InFlight<string>(8);
    for (let n = 0; n < 5; n++) f.add(n, `v${n}`);
    f.take(3);
    expect(f.takeAll().sort()).toEqual(['v0', 'v1', 'v2', 'v4']);
    expect(f.size).toBe(0);
    expect(f.take(0)).toBeUndefined();
  });
});
