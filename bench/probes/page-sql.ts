/**
 * Times the SQL of one list page alone, over the rotation users (issue #18): captures the statements
 * a request runs, then replays each user's page statement on a raw better-sqlite3 connection.
 * Usage: DATABASE_URL=file:/tmp/x/app.db PAGE_ROUTE=/api/tasks/?limit=50 npx tsx bench/probes/page-sql.ts
 * PAGE_PRAGMAS: statements run on the replay connection first (e.g. "cache_size=-65536").
 */
import { randomBytes } from 'node:crypto';
import Database from 'better-sqlite3';
import { buildApp } from '../../server/src/app.ts';
import { loadConfig } from '../../server/src/config.ts';
import { DEMO_PASSWORD } from '../src/config.ts';

async function main() {
  // Keeps the loop alive while a sign-in waits on an unreferenced worker.
  setInterval(() => {}, 1000);
  const url = process.env.DATABASE_URL ?? '';
  const route = process.env.PAGE_ROUTE ?? '/api/tasks/?limit=50';
  const config = loadConfig({
    ...process.env,
    DEMO_SEED: 'true',
    DEMO_PASSWORD,
    JWT_SECRET: randomBytes(48).toString('base64url'),
    READ_CACHE_MB: '0',
    RATE_LIMIT_AUTH_MAX: '100000000',
    LOGIN_MAX_FAILURES: '100000000',
    LOG_LEVEL: 'warn',
    // The pages on the main connection, where the capture below sees them (not the read worker's).
    SQLITE_READ_WORKER: 'false',
  });
  const { app, ctx } = await buildApp(config, { serveWeb: false });
  const users = await ctx.db
    .selectFrom('users')
    .select('email')
    .where('email', 'not like', '%demo.example')
    .orderBy('email')
    .limit(Number(process.env.PAGE_USERS ?? 200))
    .execute();
  const captured: { source: string; args: unknown[] }[] = [];
  const proto = Object.getPrototypeOf(new Database(':memory:').prepare('select 1'));
  const all = proto.all;
  let capture = false;
  proto.all = function (this: { source: string }, ...args: unknown[]) {
    if (capture) captured.push({ source: this.source, args });
    return all.apply(this, args);
  };
  for (const u of users) {
    const res = await app.inject({
      method: 'POST',
      url: '/api/auth/token',
      payload: new URLSearchParams({ username: u.email, password: DEMO_PASSWORD }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    const token = res.json().access_token;
    capture = true;
    await app.inject({ method: 'GET', url: route, headers: { authorization: `Bearer ${token}` } });
    capture = false;
  }
  await app.close();
  console.log(`${users.length} users, ${captured.length} statements`);
  if (process.env.PAGE_DUMP)
    (await import('node:fs')).writeFileSync(process.env.PAGE_DUMP, JSON.stringify(captured));
  const raw = new Database(url.replace(/^file:/, ''), { readonly: true });
  for (const p of (process.env.PAGE_PRAGMAS ?? '').split(';').filter(Boolean)) raw.pragma(p);
  const bySource = new Map<string, unknown[][]>();
  for (const c of captured.filter((x) => /^\s*(select|with)/i.test(x.source)))
    bySource.set(c.source, [...(bySource.get(c.source) ?? []), c.args]);
  for (let round = 0; round < 3; round++) {
    for (const [source, argsList] of bySource) {
      const stmt = raw.prepare(source);
      const t = performance.now();
      let rows = 0;
      for (let i = 0; i < 5; i++) for (const args of argsList) rows += stmt.all(...args).length;
      const ms = (performance.now() - t) / (5 * argsList.length);
      if (round === 2)
        console.log(
          `${ms.toFixed(3)} ms  ${argsList.length}x  ${rows / 5 / argsList.length} rows  ${source.slice(0, 150)}`,
        );
    }
  }
}

main()
  .then(() => process.exit(0))
  .catch((err) => {
    console.error(err);
    process.exit(1);
  });
