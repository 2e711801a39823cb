import { describe, expect, it } from 'vitest';
import { plainText } from './prose.ts';

// Stored text reaches answers and citation labels as plain words (issue 47 item 2). A contact's
// search body ends with its e-mails as JSON, and a snippet may cut that JSON anywhere.
describe('plainText', () => {
  const RAW = /\["|"\]|\{"|":|\*\*|`/;

  it('unwraps a whole JSON array of strings', () => {
    expect(plainText('["priya@example.com","leo@example.com"]')).toBe('priya@example.com, leo@example.com');
  });

  it('unwraps JSON after words, as a contact search body holds its e-mails after its notes', () => {
    const out = plainText(
      'Head of sales. Call back about the offsite ["priya@example.com", "leo@example.com"]',
    );
    expect(out).toBe('Head of sales. Call back about the offsite priya@example.com, leo@example.com');
  });

  it('unwraps JSON cut short by a snippet, leaving no JSON punctuation', () => {
    for (const cut of [
      '…the offsite ["priya@example.com", "leo@exa…',
      '…the offsite ["priya@example.com", "leo@example.com"…',
      '…offsite {"email": "priya@example.com", "ph',
    ]) {
      const out = plainText(cut);
      expect(out, cut).not.toMatch(RAW);
      expect(out, cut).toContain('priya@example.com');
    }
  });

  it('leaves plain text and quoted words alone', () => {
    expect(plainText('Say "yes" to the [draft] plan')).toBe('Say "yes" to the [draft] plan');
  });
});
