import { describe, expect, it } from 'vitest';
import { parseEngines } from './config.ts';
import { groupsOfPass } from './engine.ts';

describe('BENCH_ENGINES', () => {
  it('defaults to both engines, SQLite first', () => {
    expect(parseEngines(undefined)).toEqual(['sqlite', 'postgres']);
    expect(parseEngines('')).toEqual(['sqlite', 'postgres']);
  });

  it('runs one engine when it names one', () => {
    expect(parseEngines('sqlite')).toEqual(['sqlite']);
    expect(parseEngines(' postgres ')).toEqual(['postgres']);
    expect(parseEngines('postgres,sqlite')).toEqual(['sqlite', 'postgres']);
  });

  it('refuses an unknown engine rather than measuring nothing', () => {
    expect(() => parseEngines('mysql')).toThrow(/unknown engine\(s\) mysql/);
  });
});

describe('passes', () => {
  const groups = [
    { name: 'bundle-size', once: true },
    { name: 'workspace-lists' },
    { name: 'lighthouse', once: true },
  ];

  it('the first engine runs every group, the next ones only the engine-specific groups', () => {
    expect(groupsOfPass(groups, true).map((g) => g.name)).toEqual([
      'bundle-size',
      'workspace-lists',
      'lighthouse',
    ]);
    expect(groupsOfPass(groups, false).map((g) => g.name)).toEqual(['workspace-lists']);
  });
});
