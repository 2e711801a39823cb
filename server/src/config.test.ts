import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'cc-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const base = {
  DATABASE_URL: `file:${path.join(dir, 'app.db')}`,
  JWT_SECRET: 'x'.repeat(40),
  SECRETS_KEY: 'y'.repeat(40),
};

describe('HOST default', () => {
  it('listens on loopback while the demo workspace (printed passwords) may be seeded', () => {
    expect(loadConfig({ ...base }).host).toBe('127.0.0.1');
    expect(loadConfig({ ...base, NODE_ENV: 'production', DEMO_SEED: '1' }).host).toBe('127.0.0.1');
  });
  it('listens on every interface in production without the demo, and PostgreSQL without it', () => {
    expect(loadConfig({ ...base, NODE_ENV: 'production' }).host).toBe('0.0.0.0');
    expect(loadConfig({ ...base, DATABASE_URL: 'postgres://u@127.0.0.1:1/db' }).host).toBe('0.0.0.0');
  });
  it('takes HOST when set', () => {
    expect(loadConfig({ ...base, HOST: '0.0.0.0' }).host).toBe('0.0.0.0');
    expect(loadConfig({ ...base, NODE_ENV: 'production', HOST: '10.1.2.3' }).host).toBe('10.1.2.3');
  });
});
