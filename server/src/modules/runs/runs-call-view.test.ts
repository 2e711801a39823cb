import { describe, expect, it } from 'vitest';
import { describeHttpCall, redactHeaders } from './engine/tools.ts';

describe('the call an approval shows (issue 19 section 1)', () => {
  it('masks every secret-looking header and keeps the others', () => {
    expect(
      redactHeaders({
        Authorization: 'Bearer abc',
        Cookie: 'sid=1',
        'X-Api-Key': 'k',
        'x-auth-token': 't',
        'X-Client-Secret': 's',
        'content-type': 'application/json',
        accept: 'text/plain',
      }),
    ).toEqual({
      Authorization: '[redacted]',
      Cookie: '[redacted]',
      'X-Api-Key': '[redacted]',
      'x-auth-token': '[redacted]',
      'X-Client-Secret': '[redacted]',
      'content-type': 'application/json',
      accept: 'text/plain',
    });
  });

  it('a GET carries its arguments in the URL, a POST in its JSON body', () => {
    expect(describeHttpCall('GET', 'https://api.example.com/q?fixed=1', { a: 'x y', n: 2 })).toEqual({
      method: 'GET',
      url: 'https://api.example.com/q?fixed=1&a=x+y&n=2',
      headers: {},
      body: null,
    });
    expect(describeHttpCall('POST', 'https://api.example.com/hook', { a: 1 })).toEqual({
      method: 'POST',
      url: 'https://api.example.com/hook',
      headers: { 'content-type': 'application/json' },
      body: { a: 1 },
    });
  });
});
