import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type BuiltServer, login, startBuiltServer } from './support/built-server.ts';
import { type PgCluster, pgDescribe, startPgCluster } from './support/pg-cluster.ts';
import { figure, ROUNDS } from './support/writers.ts';

const DEMO_PASSWORD = 'demo-password-1';

pgDescribe('two instances started at once on an empty PostgreSQL database', () => {
  let cluster: PgCluster;
  let dir: string;
  const servers: BuiltServer[] = [];
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'cc-faults-'));
    cluster = await startPgCluster();
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.kill('SIGKILL')));
    cluster?.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  it('both migrate, seed once, and serve', async () => {
    // The demo seed is the largest start-up transaction: the widest window for a race.
    for (let round = 0; round < ROUNDS; round++) {
      const url = await cluster.createDatabase();
      const env = {
        DATABASE_URL: url,
        DEMO_SEED: 'true',
        DEMO_PASSWORD,
        ADMIN_EMAIL: '',
        ADMIN_PASSWORD: '',
        FILES_DIR: path.join(dir, `files-${round}`),
      };
      const started = await Promise.allSettled([startBuiltServer(env), startBuiltServer(env)]);
      for (const s of started) if (s.status === 'fulfilled') servers.push(s.value);
      const failures = started.flatMap((s) => (s.status === 'rejected' ? [String(s.reason)] : []));
      expect(failures).toEqual([]);
      for (const s of servers.splice(0)) {
        expect(s.alive()).toBe(true);
        const token = await login(s.url, 'ceo@demo.example', DEMO_PASSWORD);
        const orgs = await fetch(`${s.url}/api/organizations`, {
          headers: { authorization: `Bearer ${token}` },
        });
        expect(orgs.status).toBe(200);
        // Seeded once: one demo organization, not two.
        const body = (await orgs.json()) as unknown[] | { items: unknown[] };
        expect(Array.isArray(body) ? body.length : body.items.length).toBe(1);
        await s.kill('SIGTERM');
      }
    }
    figure('concurrent start', { rounds: ROUNDS, instances: 2 });
  });
});
