// First: the V8 setting must apply before the app allocates (see the module).
import './platform/v8-heap-tuning.ts';
import path from 'node:path';
import { buildApp, DRAIN_GRACE_MS } from './app.ts';
import { loadConfig } from './config.ts';
import { knownDemoCredentials, seedIfEmpty } from './db/seed/demo.ts';
import { withStartupLock } from './db/startup-lock.ts';
import { isSharedDir, PRIVATE_UMASK } from './platform/data-dir.ts';

async function main() {
  // Before the first file is written: the database, its journals, the secrets and the uploads are the
  // owner's alone (docs/operations.md, "One instance").
  process.umask(PRIVATE_UMASK);
  const config = loadConfig();
  const { app, ctx, drain } = await buildApp(config);
  // An existing directory keeps its mode (it may be shared on purpose), but the operator is told.
  if (config.db.kind === 'sqlite' && isSharedDir(config.dataDir)) {
    app.log.warn({ dataDir: config.dataDir }, 'the data directory is open to other accounts: chmod 700 it');
  }

  // Several instances may start at once on one empty PostgreSQL database: one seeds, the others wait.
  const seeded = await withStartupLock(ctx.db, ctx.dialect, () => seedIfEmpty(ctx));
  const credentials = seeded.kind === 'none' ? await knownDemoCredentials(ctx) : seeded.credentials;

  // Fastify's own "Server listening" lines (one per interface, some written after the banner) would
  // split the banner from the sign-in details: the banner alone says where the server is.
  const level = app.log.level;
  if (['info', 'debug', 'trace'].includes(level)) app.log.level = 'warn';
  const address = await app.listen({ port: config.port, host: config.host });
  app.log.level = level;
  const url = address.replace('0.0.0.0', 'localhost').replace('[::]', 'localhost');
  const lines = [
    '',
    `  Command Centre is running at ${url}`,
    `  API docs: ${url}/api/docs   Database: ${ctx.dialect}`,
  ];
  if (config.db.kind === 'sqlite') lines.push(`  Data: ${config.dataDir}`);
  if (credentials.length) {
    lines.push('', `  Sign in with (${seeded.kind === 'admin' ? 'first admin' : 'demo workspace'}):`);
    for (const c of credentials)
      lines.push(`    ${c.level.padEnd(6)} ${c.email.padEnd(22)} password: ${c.password}`);
    if (seeded.kind !== 'admin' && !config.demoPassword && config.db.kind === 'sqlite')
      lines.push(
        `  Kept in ${path.join(config.dataDir, 'demo-credentials.json')} (README: "Reset the demo").`,
      );
  } else if (
    seeded.kind === 'none' &&
    (await import('./modules/users/users.service.ts').then((m) => m.countUsers(ctx))) === 0
  ) {
    lines.push('', '  No users yet: set ADMIN_EMAIL and ADMIN_PASSWORD (or DEMO_SEED=true) and restart.');
  }
  // One write, so no log line can land inside the banner.
  process.stdout.write(`${lines.join('\n')}\n\n`);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'draining');
    // The grace period, then up to 10 s for stopped replies to be written; never longer.
    const timer = setTimeout(() => process.exit(1), DRAIN_GRACE_MS + 10_000);
    timer.unref();
    await drain();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
