import { describe, expect, it } from 'vitest';
import { registryOf } from './kind-registry.ts';

describe('a registry of handlers by kind', () => {
  it('holds what each contribution registers, and nothing for other kinds', () => {
    const registry = registryOf<string>('greeting', [
      (r) => r.register('morning', 'good morning'),
      (r) => {
        r.register('evening', 'good evening');
        r.register('night', 'good night');
      },
    ]);
    expect(['morning', 'evening', 'night', 'noon'].map((k) => registry.get(k))).toEqual([
      'good morning',
      'good evening',
      'good night',
      undefined,
    ]);
  });

  it('refuses a kind registered twice, naming it, instead of letting one shadow the other', () => {
    expect(() =>
      registryOf<string>('greeting', [(r) => r.register('morning', 'a'), (r) => r.register('morning', 'b')]),
    ).toThrow('The greeting "morning" is registered twice');
  });
});
