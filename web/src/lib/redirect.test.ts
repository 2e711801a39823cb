import { describe, expect, it } from 'vitest';
import { loginPathFor, safeAppRedirect } from './redirect';

describe('safeAppRedirect', () => {
  it.each([
    ['/app/notes', '/app/notes'],
    ['/app', '/app'],
    ['/app/conversations/abc?x=1#m', '/app/conversations/abc?x=1#m'],
  ])('accepts %s', (input, expected) => {
    expect(safeAppRedirect(input)).toBe(expected);
  });

  it.each([
    null,
    '',
    'https://evil.example/app',
    '//evil.example/app',
    '/application',
    '/login',
    '/app/../login',
    '/app//evil.example',
    '/app\\evil',
    'javascript:alert(1)',
  ])('refuses %s', (input) => {
    expect(safeAppRedirect(input)).toBeNull();
  });

  it('builds the login path with the target encoded', () => {
    expect(loginPathFor('/app/notes?x=1')).toBe('/login?redirect=%2Fapp%2Fnotes%3Fx%3D1');
  });
});
