/**
 * The durable-writes row alone (issue #18), over HTTP against the built server: GET /healthz and
 * POST /api/tasks/ at 32 connections, ROUNDS alternations, on a fresh demo database each round.
 * Usage: npm run build && ROUNDS=3 npx tsx bench/probes/write-http.ts   (PostgreSQL: inside
 * `node scripts/with-postgres.mjs`). SEED=1: on the workspace-lists data set, as its busy user.
 */
import { useEngine } from '../src/engine.ts';
import { measure } from '../src/http.ts';
import { loadSettings } from '../src/config.ts';
import { signIn, startOwnServer } from '../src/own-server.ts';
import { seedWorkspace } from '../src/scenarios/workspace-seed.ts';

async function main() {
  if (process.env.TEST_PG_URL) useEngine('postgres', process.env.TEST_PG_URL);
  const settings = { ...loadSettings(), runs: 1, warmup: 2, duration: Number(process.env.DURATION ?? 8) };
  const rounds = Number(process.env.ROUNDS ?? 3);
  for (let i = 0; i < rounds; i++) {
    const server = await startOwnServer({ name: 'write-http' });
    try {
      const user = process.env.SEED
        ? (await seedWorkspace(server.databaseUrl)).heavy.email
        : 'ceo@demo.example';
      const token = await signIn(server.baseURL, user);
      const control = await measure(
        server.baseURL,
        'probe',
        { name: 'control', method: 'GET', path: '/healthz' },
        settings,
        null,
      );
      const writes = await measure(
        server.baseURL,
        'probe',
        {
          name: 'create task',
          method: 'POST',
          path: '/api/tasks/',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({
            title: 'Bench write',
            priority: 'Medium',
            status: 'To Do',
            description: 'Created by the bench.',
          }),
        },
        settings,
        control,
      );
      console.log(
        `round ${i + 1}: writes ${(100 * (writes.ratio_to_control ?? 0)).toFixed(1)} % of control, p99 ${writes.p99_ms} ms`,
      );
    } finally {
      await server.stop();
    }
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
