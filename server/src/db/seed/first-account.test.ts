import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { apiSuite, createTestApp, TEST_DB } from '../../../test/helpers.ts';
import { startServerProcess } from '../../../test/server-process.ts';
import { countUsers } from '../../modules/users/users.service.ts';
import { NO_FIRST_ACCOUNT, seedIfEmpty } from './demo.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

apiSuite('the first account in production', () => {
  it('an empty database with no ADMIN_EMAIL/ADMIN_PASSWORD is refused with the reason, and nothing is seeded', async () => {
    const t = await createTestApp({ NODE_ENV: 'production', DEMO_SEED: '' });
    try {
      expect(t.config.demoSeed).toBe(false);
      await expect(seedIfEmpty(t.ctx)).rejects.toThrow(NO_FIRST_ACCOUNT);
      expect(await countUsers(t.ctx)).toBe(0);
    } finally {
      await t.close();
    }
  });

  it('DEMO_SEED=1 seeds the demo workspace; ADMIN_EMAIL/ADMIN_PASSWORD create the first admin', async () => {
    const demo = await createTestApp({
      NODE_ENV: 'production',
      DEMO_SEED: '1',
      DEMO_PASSWORD: 'demo-pass-123',
    });
    const admin = await createTestApp({
      NODE_ENV: 'production',
      DEMO_SEED: '',
      ADMIN_EMAIL: 'Ops@Example.com',
      ADMIN_PASSWORD: 'a-long-admin-password',
    });
    try {
      expect((await seedIfEmpty(demo.ctx)).kind).toBe('demo');
      expect(await seedIfEmpty(admin.ctx)).toMatchObject({ kind: 'admin' });
      expect(await admin.login('ops@example.com', 'a-long-admin-password')).toBeTruthy();
    } finally {
      await demo.close();
      await admin.close();
    }
  });

  it.skipIf(TEST_DB === 'postgres')(
    'the server process exits with that message instead of serving',
    async () => {
      const dir = mkdtempSync(path.join(tmpdir(), 'cc-prod-'));
      try {
        await expect(
          startServerProcess({
            NODE_ENV: 'production',
            DEMO_SEED: '',
            DATABASE_URL: `file:${path.join(dir, 'app.db')}`,
          }),
        ).rejects.toThrow(/exited with 1:[\s\S]*set ADMIN_EMAIL and ADMIN_PASSWORD/);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
    30_000,
  );
});

it('the default data directory is the repository’s ./data/ whatever the working directory', () => {
  // What `npm run dev -w server` does: the server started from server/.
  const script =
    "import('./src/config.ts').then((m) => { const c = m.loadConfig({ JWT_SECRET: 'x'.repeat(40) }); " +
    'console.log(JSON.stringify({ db: c.db.file, files: c.filesDir, data: c.dataDir })); })';
  const out = execFileSync(process.execPath, ['--import', 'tsx', '-e', script], {
    cwd: path.join(repoRoot, 'server'),
    env: { ...process.env, DATABASE_URL: '', FILES_DIR: '' },
    encoding: 'utf8',
  });
  expect(JSON.parse(out.trim().split('\n').at(-1) ?? '')).toEqual({
    db: path.join(repoRoot, 'data', 'app.db'),
    files: path.join(repoRoot, 'data', 'files'),
    data: path.join(repoRoot, 'data'),
  });
});
