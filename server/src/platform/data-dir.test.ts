import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BuiltApp, buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { createAccount } from '../modules/users/users.service.ts';

const modeOf = (p: string) => statSync(p).mode & 0o777;

/**
 * The data directory and everything the server writes in it are the owner's alone, whatever the
 * process umask (the test runner's is the usual 022). The files live on disk only with SQLite;
 * PostgreSQL's own files are its server's business, so this suite uses a SQLite file on every project.
 */
describe('data directory modes', () => {
  let root: string;
  let dataDir: string;
  let built: BuiltApp;
  beforeAll(async () => {
    root = mkdtempSync(path.join(tmpdir(), 'cc-modes-'));
    // Nested and not there yet: the server creates it (and its parent).
    dataDir = path.join(root, 'srv', 'data');
    const config = loadConfig({
      DATABASE_URL: `file:${path.join(dataDir, 'app.db')}`,
      LOG_LEVEL: 'silent',
      DEMO_SEED: 'false',
      RUN_WORKER_CONCURRENCY: '0',
    });
    built = await buildApp(config, { serveWeb: false });
    await built.app.ready();
  });
  afterAll(async () => {
    await built.app.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('creates the directory 0700 and the database, its WAL, the secrets and uploads 0600', async () => {
    // A write, so the WAL and its index exist; an upload, so the files folder does.
    const email = `modes-${randomUUID().slice(0, 6)}@test.example`;
    await createAccount(built.ctx, {
      email,
      password: 'correct-horse-9',
      user_level: 'user',
      first_name: 'Mode',
      last_name: 'Tester',
    });
    const login = await built.app.inject({
      method: 'POST',
      url: '/api/auth/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ username: email, password: 'correct-horse-9' }).toString(),
    });
    expect(login.statusCode).toBe(200);
    const boundary = `----cc${randomUUID().replace(/-/g, '')}`;
    const upload = await built.app.inject({
      method: 'POST',
      url: '/api/files',
      headers: {
        authorization: `Bearer ${login.json().access_token}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
      },
      payload:
        `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="plan.txt"\r\n` +
        `Content-Type: text/plain\r\n\r\nThe plan.\r\n--${boundary}--\r\n`,
    });
    expect(upload.statusCode, upload.body).toBe(201);

    expect(modeOf(path.join(root, 'srv')).toString(8)).toBe('700');
    expect(modeOf(dataDir).toString(8)).toBe('700');
    for (const name of ['app.db', 'app.db-wal', 'app.db-shm', 'jwt-secret', 'secrets-key']) {
      expect(modeOf(path.join(dataDir, name)).toString(8), name).toBe('600');
    }
    const files = path.join(dataDir, 'files');
    expect(modeOf(files).toString(8)).toBe('700');
    const stored = readdirSync(files).filter((n) => !n.startsWith('.'));
    expect(stored).toHaveLength(1);
    expect(modeOf(path.join(files, stored[0])).toString(8)).toBe('600');
    // Nothing in the directory is open to the group or others.
    for (const name of readdirSync(dataDir)) {
      expect(modeOf(path.join(dataDir, name)) & 0o077, name).toBe(0);
    }
  });
});
