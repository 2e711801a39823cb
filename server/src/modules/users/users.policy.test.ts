import { describe, expect, it } from 'vitest';
import {
  accountEditRefusal,
  deletionRefusal,
  maySeeCustomPrompts,
  profileEditRefusal,
  SIGN_UP_LEVEL,
  ssoSignUpLevel,
} from './users.policy.ts';

const admin = { id: 'a', user_level: 'admin' };
const ceo = { id: 'c', user_level: 'ceo' };
const user = { id: 'u', user_level: 'user' };
const waitlisted = { id: 'w', user_level: 'waitlisted' };

describe("the users' admin rules", () => {
  it('puts every sign-up on the waitlist, but a single sign-on from an allowed domain', () => {
    expect(SIGN_UP_LEVEL).toBe('waitlisted');
    expect(ssoSignUpLevel(false)).toBe('waitlisted');
    expect(ssoSignUpLevel(true)).toBe('user');
  });

  it('shows and lets set custom prompts to a platform admin only', () => {
    expect([admin, ceo, user, waitlisted].map(maySeeCustomPrompts)).toEqual([true, false, false, false]);
    expect(profileEditRefusal(admin, { custom_prompts: {} })).toBeNull();
    expect(profileEditRefusal(ceo, { custom_prompts: {} })).toBe(
      'Only administrators can edit custom prompts.',
    );
  });

  it('lets nobody change their own level, and takes the level read back unchanged as no change', () => {
    expect(profileEditRefusal(user, { user_level: 'admin' })).toBe('You cannot change your own user level.');
    expect(profileEditRefusal(waitlisted, { user_level: 'user' })).toBe(
      'You cannot change your own user level.',
    );
    expect(profileEditRefusal(user, { user_level: 'user' })).toBeNull();
    expect(accountEditRefusal(admin, admin.id, { user_level: 'user' })).toBe(
      'You cannot change your own user level.',
    );
    expect(accountEditRefusal(admin, admin.id, { user_level: 'admin' })).toBeNull();
  });

  it("lets a platform admin approve, waitlist and re-level anyone else's account, and nobody else", () => {
    expect(accountEditRefusal(admin, waitlisted.id, { user_level: 'user' })).toBeNull();
    expect(accountEditRefusal(admin, user.id, { user_level: 'waitlisted' })).toBeNull();
    expect(accountEditRefusal(admin, ceo.id, {})).toBeNull();
    expect(accountEditRefusal(ceo, user.id, { user_level: 'waitlisted' })).toBe(
      'Only administrators can do this.',
    );
  });

  it("lets a platform admin delete others' accounts but not their own, an admin's or a CEO's", () => {
    expect(deletionRefusal(admin, user)).toBeNull();
    expect(deletionRefusal(admin, waitlisted)).toBeNull();
    expect(deletionRefusal(admin, admin)).toBe('You cannot delete your own account.');
    expect(deletionRefusal(admin, { id: 'a2', user_level: 'admin' })).toBe(
      'Admin and CEO accounts cannot be deleted.',
    );
    expect(deletionRefusal(admin, ceo)).toBe('Admin and CEO accounts cannot be deleted.');
    expect(deletionRefusal(ceo, user)).toBe('Only administrators can do this.');
  });
});
