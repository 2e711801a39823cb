import { describe, expect, it } from 'vitest';
import { TableClock } from '../../db/table-clock.ts';
import { parseMembershipList, rememberedMemberships, rememberMemberships } from './caller-memberships.ts';

class Clock extends TableClock {
  readonly needsSync = false;
  sync() {
    return null;
  }
}

class UnloggedClock extends Clock {
  override caches(table: string) {
    return table !== 'organization_members';
  }
  override unchangedSince() {
    return false;
  }
}

describe('the memberships read with the session', () => {
  it('parses the aggregate, none included', () => {
    expect(parseMembershipList('o1=admin,o2=user')).toEqual(
      new Map([
        ['o1', 'admin'],
        ['o2', 'user'],
      ]),
    );
    expect(parseMembershipList(null)).toEqual(new Map());
    expect(parseMembershipList('')).toEqual(new Map());
  });

  it('stand for the memberships until organization_members is written, then never again', () => {
    const clock = new Clock();
    const caller = { id: 'u1' };
    const stamp = clock.stamp();
    rememberMemberships(caller, 'o1=user', clock, stamp);
    clock.changed(['tasks']);
    expect(rememberedMemberships(caller)).toEqual(new Map([['o1', 'user']]));
    clock.changed(['organization_members']);
    expect(rememberedMemberships(caller)).toBeUndefined();
    expect(rememberedMemberships(caller)).toBeUndefined();
    // Another caller object (another request) knows nothing.
    expect(rememberedMemberships({ id: 'u1' })).toBeUndefined();
  });

  it('follow this process’s own writes where the clock cannot see other instances', () => {
    // PostgreSQL with the read cache off: the change feed never looked, no table counts as logged.
    const unlogged = new UnloggedClock();
    const caller = { id: 'u1' };
    rememberMemberships(caller, 'o1=user', unlogged, unlogged.stamp());
    expect(rememberedMemberships(caller)).toEqual(new Map([['o1', 'user']]));
    unlogged.changed(['organization_members']);
    expect(rememberedMemberships(caller)).toBeUndefined();
    // Without a clock nothing is kept.
    rememberMemberships(caller, 'o1=user', null, 0);
    expect(rememberedMemberships(caller)).toBeUndefined();
  });
});
