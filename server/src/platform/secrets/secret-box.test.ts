import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.ts';
import { headerNamesOf, openHeaders, sealHeaders } from './sealed-headers.ts';
import { openSecret, sealSecret } from './secret-box.ts';

describe('secrets at rest (SECRETS_KEY, AES-256-GCM)', () => {
  it('seals so that only the same key opens it; a tampered value does not open', () => {
    const sealed = sealSecret('key-a', 'Bearer abc');
    expect(sealed).not.toContain('Bearer');
    expect(sealSecret('key-a', 'Bearer abc')).not.toBe(sealed); // a fresh IV each time
    expect(openSecret('key-a', sealed)).toBe('Bearer abc');
    expect(openSecret('key-b', sealed)).toBeNull();
    const parts = sealed.split('.');
    const flipped = parts[3].startsWith('A') ? `B${parts[3].slice(1)}` : `A${parts[3].slice(1)}`;
    expect(openSecret('key-a', [...parts.slice(0, 3), flipped].join('.'))).toBeNull();
  });

  it('headers keep their names in clear and their values sealed', () => {
    const stored = sealHeaders('k', { Authorization: 'Bearer xyz', 'X-Team': 't1' });
    expect(stored).not.toContain('xyz');
    expect(headerNamesOf(stored)).toEqual(['Authorization', 'X-Team']);
    expect(openHeaders('k', stored)).toEqual({ Authorization: 'Bearer xyz', 'X-Team': 't1' });
    expect(openHeaders('other', stored)).toEqual({});
    expect(sealHeaders('k', {})).toBeNull();
  });

  it('without SECRETS_KEY a key is generated once in the data directory and reused', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'cc-secrets-'));
    try {
      const env = { DATABASE_URL: `file:${path.join(dir, 'app.db')}`, JWT_SECRET: 'x'.repeat(40) };
      const first = loadConfig(env).secretsKey;
      expect(first.length).toBeGreaterThanOrEqual(32);
      expect(readFileSync(path.join(dir, 'secrets-key'), 'utf8').trim()).toBe(first);
      expect(loadConfig(env).secretsKey).toBe(first);
      expect(loadConfig({ ...env, SECRETS_KEY: 'from-env' }).secretsKey).toBe('from-env');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
