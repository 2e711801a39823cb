import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

it('without PostgreSQL, with-postgres.mjs says loudly that its suite is skipped and tells npm test', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'cc-nopg-'));
  const marker = path.join(dir, 'postgres-skipped');
  try {
    // A machine with no PostgreSQL: no initdb on PATH (only node's own directory) nor under PG_LIB_DIR.
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PATH: path.dirname(process.execPath),
      PG_LIB_DIR: path.join(dir, 'none'),
      PG_SKIPPED_MARKER: marker,
    };
    delete env.TEST_PG_URL;
    delete env.PG_BIN_DIR;
    const res = spawnSync(
      process.execPath,
      ['scripts/with-postgres.mjs', process.execPath, '-e', 'process.exit(process.env.TEST_PG_URL ? 3 : 0)'],
      { cwd: root, env, encoding: 'utf8' },
    );
    expect(res.status, res.stderr).toBe(0);
    expect(res.stderr).toContain('PostgreSQL not available: server-postgres tests SKIPPED');
    // scripts/run-tests.mjs repeats it in the summary when this file exists.
    expect(existsSync(marker)).toBe(true);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
