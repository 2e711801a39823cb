import { describe, expect, it } from 'vitest';
import { ZRegisterRequest, ZTokenRequest } from './auth.ts';
import { ZAddOrgUserRequest } from './organizations.ts';
import { displayName, parseCustomPrompts, parseObjectives, ZUpdateMeRequest } from './users.ts';

describe('parseObjectives', () => {
  it('splits on lines, trims and drops blank lines', () => {
    expect(parseObjectives('  Grow ARR \n\n  \nHire a CFO\r\nShip v2')).toEqual([
      'Grow ARR',
      'Hire a CFO',
      'Ship v2',
    ]);
    expect(parseObjectives('')).toEqual([]);
  });
});

describe('parseCustomPrompts', () => {
  it('keeps a JSON object and turns anything else into {}', () => {
    expect(parseCustomPrompts('{"tone":"crisp"}')).toEqual({ tone: 'crisp' });
    expect(parseCustomPrompts('{not json')).toEqual({});
    expect(parseCustomPrompts('[1,2]')).toEqual({});
    expect(parseCustomPrompts('"text"')).toEqual({});
    expect(parseCustomPrompts({ a: 1 })).toEqual({ a: 1 });
    expect(parseCustomPrompts(null)).toEqual({});
  });
});

describe('displayName', () => {
  it('uses first and last name, else the e-mail', () => {
    expect(displayName({ first_name: 'Olivia', last_name: 'Chen', email: 'o@x.io' })).toBe('Olivia Chen');
    expect(displayName({ first_name: 'Olivia', last_name: null, email: 'o@x.io' })).toBe('Olivia');
    expect(displayName({ first_name: ' ', last_name: '', email: 'o@x.io' })).toBe('o@x.io');
  });
});

describe('request schemas', () => {
  it('sign-up: spec messages, lower-cased e-mail', () => {
    const ok = ZRegisterRequest.parse({
      email: ' A@B.io ',
      password: 'secret',
      first_name: 'A',
      last_name: 'B',
    });
    expect(ok.email).toBe('a@b.io');
    const short = ZRegisterRequest.safeParse({
      email: 'a@b.io',
      password: '12345',
      first_name: 'A',
      last_name: 'B',
    });
    expect(short.error?.issues[0].message).toBe('Password must be at least 6 characters long.');
    const blank = ZRegisterRequest.safeParse({
      email: 'a@b.io',
      password: 'secret',
      first_name: '  ',
      last_name: 'B',
    });
    expect(blank.error?.issues[0].message).toBe('Please fill in all fields.');
  });

  it('sign-in: remember_me accepts form values', () => {
    expect(ZTokenRequest.parse({ username: 'a', password: 'b', remember_me: 'true' }).remember_me).toBe(true);
    expect(ZTokenRequest.parse({ username: 'a', password: 'b', remember_me: 'on' }).remember_me).toBe(true);
    expect(ZTokenRequest.parse({ username: 'a', password: 'b' }).remember_me).toBe(false);
  });

  it('profile update: password minimum 8 and unknown fields refused', () => {
    expect(ZUpdateMeRequest.safeParse({ password: 'short' }).error?.issues[0].message).toBe(
      'Password must be at least 8 characters',
    );
    expect(ZUpdateMeRequest.safeParse({ is_admin: true }).success).toBe(false);
  });

  it('organization member: e-mail required and validated, access level defaults to user', () => {
    expect(ZAddOrgUserRequest.safeParse({}).error?.issues[0].message).toBe('Email is required');
    expect(ZAddOrgUserRequest.safeParse({ email: 'nope' }).error?.issues[0].message).toBe(
      'Invalid email address',
    );
    expect(ZAddOrgUserRequest.parse({ email: 'X@Y.io' })).toEqual({
      email: 'x@y.io',
      org_access_level: 'user',
    });
    expect(
      ZAddOrgUserRequest.safeParse({ email: 'x@y.io', org_access_level: 'boss' }).error?.issues[0].message,
    ).toBe('Access level is required');
  });
});
