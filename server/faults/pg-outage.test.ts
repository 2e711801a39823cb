import { afterAll, beforeAll, expect, it } from 'vitest';
import { type BuiltServer, login, startBuiltServer } from './support/built-server.ts';
import { type PgCluster, pgDescribe, startPgCluster } from './support/pg-cluster.ts';
import { figure, missingPgTasks, ROUNDS, sleep, startWriters, WRITERS } from './support/writers.ts';

async function waitFor(what: string, check: () => Promise<boolean>, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return;
    await sleep(100);
  }
  throw new Error(`timed out waiting for ${what}`);
}

pgDescribe('PostgreSQL faults under writers: terminated connections and a restart', () => {
  let cluster: PgCluster;
  let server: BuiltServer | undefined;
  beforeAll(async () => {
    cluster = await startPgCluster();
  });
  afterAll(async () => {
    await server?.kill('SIGKILL');
    cluster?.destroy();
  });

  it('keeps serving, answers 503 with Retry-After while down, and loses no acknowledged write', async () => {
    const dbUrl = await cluster.createDatabase();
    const dbName = new URL(dbUrl).pathname.slice(1);
    server = await startBuiltServer({ DATABASE_URL: dbUrl });
    const s = server;
    const token = await login(s.url);
    const writers = startWriters(s.url, token, WRITERS);
    const outage = { tasks: 0, readyz: 0, retryAfter: 0 };
    let terminated = 0;

    for (let round = 0; round < ROUNDS; round++) {
      // Busy connections cut under load, several times.
      for (let i = 0; i < 3; i++) {
        await sleep(300);
        terminated += await cluster.terminateBackends(dbName);
      }
      expect(s.alive(), s.output()).toBe(true);

      // PostgreSQL goes away: reads and readiness say 503 with Retry-After, the process stays.
      cluster.stop();
      const list = await fetch(`${s.url}/api/tasks`, { headers: { authorization: `Bearer ${token}` } });
      expect(list.status).toBe(503);
      expect(list.headers.get('retry-after')).toBe('5');
      expect(((await list.json()) as { detail: string }).detail).toMatch(/temporarily unavailable/i);
      outage.tasks++;
      const ready = await fetch(`${s.url}/readyz`);
      expect(ready.status).toBe(503);
      expect(ready.headers.get('retry-after')).toBe('5');
      outage.readyz++;
      expect((await fetch(`${s.url}/healthz`)).status).toBe(200);
      await sleep(500);
      expect(s.alive(), s.output()).toBe(true);

      // Back again: the pool recovers by itself.
      cluster.start();
      await waitFor('readyz after the restart', async () => (await fetch(`${s.url}/readyz`)).status === 200);
      const before = writers.figures.acknowledged.length;
      await waitFor('a write after the restart', async () => writers.figures.acknowledged.length > before);
    }

    const figures = await writers.stop();
    outage.retryAfter = figures.retryAfter;
    figure('pg outage', {
      rounds: ROUNDS,
      writers: WRITERS,
      terminated,
      ...figures,
      acknowledged: figures.acknowledged.length,
      ...outage,
    });
    expect(s.alive(), s.output()).toBe(true);
    // No request was treated as a bug (the error handler logs those as 'unhandled error').
    expect(s.output()).not.toMatch(/unhandled error|uncaught/i);
    // Every answer was a success or an honest 503 (no 500, no dropped connection).
    expect(Object.keys(figures.statuses).sort()).toEqual(expect.arrayContaining(['201']));
    for (const status of Object.keys(figures.statuses)) expect(['201', '503']).toContain(status);
    expect(figures.retryAfter).toBe(figures.statuses['503'] ?? 0);
    expect(figures.acknowledged.length).toBeGreaterThan(0);
    expect(await missingPgTasks(dbUrl, figures.acknowledged)).toEqual([]);
    // And the server reads them back itself.
    const last = figures.acknowledged.at(-1);
    const res = await fetch(`${s.url}/api/tasks/${last}`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
  });
});
