#!/usr/bin/env node
// Runs a command next to a throwaway PostgreSQL cluster.
//
//   node scripts/with-postgres.mjs <command> [args...]
//
// 1. finds initdb/pg_ctl (PG_BIN_DIR, then PATH, then the newest /usr/lib/postgresql/*/bin, or
//    $PG_LIB_DIR/*/bin);
// 2. initdb's a cluster into a fresh temp dir (trust auth, loopback only, fsync off, socket in the
//    temp dir, max_connections 200) and starts it on a free 127.0.0.1 port; as root it runs the
//    PostgreSQL binaries as the `postgres` user (PostgreSQL refuses to run as root);
// 3. runs the command with TEST_PG_URL=postgres://postgres@127.0.0.1:<port>/postgres (a superuser URL:
//    the server tests CREATE DATABASE per test file);
// 4. stops the cluster, deletes the temp dir and exits with the command's exit code, also when
//    interrupted (SIGINT/SIGTERM are forwarded to the command first).
//
// When TEST_PG_URL is already set, it is used as-is and no cluster is started. When PostgreSQL is not
// installed at all, a loud notice is printed and the command runs with TEST_PG_URL unset (the server's
// test helper then skips the PostgreSQL suite; the file named by PG_SKIPPED_MARKER, if set, is
// written). Any other failure to start the cluster is an error.

import { spawn, spawnSync } from 'node:child_process';
import {
  chownSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  appendFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const PG_USER = 'postgres';
const log = (msg) => process.stderr.write(`[with-postgres] ${msg}\n`);

function loud(lines) {
  const bar = '!'.repeat(78);
  process.stderr.write(`\n${bar}\n${lines.map((l) => `!!! ${l}`).join('\n')}\n${bar}\n\n`);
}

/** The directory holding initdb and pg_ctl, or null. */
function findPgBinDir() {
  const candidates = [];
  if (process.env.PG_BIN_DIR) candidates.push(process.env.PG_BIN_DIR);
  for (const dir of (process.env.PATH ?? '').split(delimiter)) if (dir) candidates.push(dir);
  const base = process.env.PG_LIB_DIR ?? '/usr/lib/postgresql';
  if (existsSync(base)) {
    const versions = readdirSync(base)
      .filter((v) => /^\d+(\.\d+)?$/.test(v))
      .sort((a, b) => Number.parseFloat(b) - Number.parseFloat(a));
    for (const v of versions) candidates.push(join(base, v, 'bin'));
  }
  return candidates.find((d) => existsSync(join(d, 'initdb')) && existsSync(join(d, 'pg_ctl'))) ?? null;
}

function freePort() {
  return new Promise((res, rej) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', rej);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => res(port));
    });
  });
}

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
// As root the cluster belongs to `postgres`, which must be able to reach it: /tmp, not a private TMPDIR.
const TMP_BASE = isRoot && existsSync('/tmp') ? '/tmp' : tmpdir();

/** Runs a PostgreSQL binary, as the postgres user when we are root. Throws on failure. */
function pg(binDir, bin, args, { quiet = true } = {}) {
  const full = join(binDir, bin);
  const [cmd, argv] = isRoot ? ['runuser', ['-u', PG_USER, '--', full, ...args]] : [full, args];
  const r = spawnSync(cmd, argv, { encoding: 'utf8', stdio: quiet ? 'pipe' : 'inherit', cwd: TMP_BASE });
  if (r.error) throw r.error;
  if (r.status !== 0) {
    throw new Error(`${bin} ${args.join(' ')} exited with ${r.status}\n${r.stdout ?? ''}${r.stderr ?? ''}`);
  }
  return r.stdout ?? '';
}

function chownRecursive(path, uid, gid) {
  const r = spawnSync('chown', ['-R', `${uid}:${gid}`, path]);
  if (r.status !== 0) chownSync(path, uid, gid);
}

function postgresIds() {
  const r = spawnSync('id', ['-u', PG_USER], { encoding: 'utf8' });
  const g = spawnSync('id', ['-g', PG_USER], { encoding: 'utf8' });
  if (r.status !== 0 || g.status !== 0) return null;
  return { uid: Number(r.stdout.trim()), gid: Number(g.stdout.trim()) };
}

async function startCluster(binDir) {
  const dir = mkdtempSync(join(TMP_BASE, 'with-pg-'));
  const data = join(dir, 'data');
  const logFile = join(dir, 'postgres.log');
  const cluster = { dir, data, logFile, binDir, started: false, url: '' };
  try {
    if (isRoot) {
      const ids = postgresIds();
      if (!ids) throw new Error(`running as root but there is no '${PG_USER}' user to run PostgreSQL as`);
      chownRecursive(dir, ids.uid, ids.gid);
    }
    pg(binDir, 'initdb', [
      '-D',
      data,
      '--username',
      PG_USER,
      '--auth',
      'trust',
      '--encoding',
      'UTF8',
      '--locale',
      'C',
      '--no-sync',
    ]);
    const port = await freePort();
    appendFileSync(
      join(data, 'postgresql.conf'),
      [
        '',
        '# with-postgres.mjs: throwaway test cluster',
        `port = ${port}`,
        "listen_addresses = '127.0.0.1'",
        `unix_socket_directories = '${dir}'`,
        'max_connections = 200',
        'fsync = off',
        'synchronous_commit = off',
        'full_page_writes = off',
        "log_min_messages = 'warning'",
        '',
      ].join('\n'),
    );
    pg(binDir, 'pg_ctl', ['-D', data, '-l', logFile, '-w', '-t', '60', 'start']);
    cluster.started = true;
    cluster.url = `postgres://${PG_USER}@127.0.0.1:${port}/postgres`;
    const version = pg(binDir, 'pg_ctl', ['--version']).trim();
    log(`${version} started on 127.0.0.1:${port} (data in ${dir})`);
    return cluster;
  } catch (err) {
    stopCluster(cluster);
    throw err;
  }
}

function stopCluster(cluster) {
  if (!cluster) return;
  if (cluster.started) {
    try {
      pg(cluster.binDir, 'pg_ctl', ['-D', cluster.data, '-m', 'immediate', '-w', '-t', '30', 'stop']);
    } catch (err) {
      log(`could not stop the cluster cleanly: ${err.message}`);
    }
    cluster.started = false;
  }
  try {
    rmSync(cluster.dir, { recursive: true, force: true });
  } catch (err) {
    log(`could not remove ${cluster.dir}: ${err.message}`);
  }
}

function runCommand(argv, env) {
  return new Promise((res) => {
    const child = spawn(argv[0], argv.slice(1), { stdio: 'inherit', env, cwd: process.cwd() });
    const forward = (sig) => {
      if (child.exitCode === null) child.kill(sig);
    };
    const onInt = () => forward('SIGINT');
    const onTerm = () => forward('SIGTERM');
    process.on('SIGINT', onInt);
    process.on('SIGTERM', onTerm);
    process.on('SIGHUP', onTerm);
    const done = (code) => {
      process.off('SIGINT', onInt);
      process.off('SIGTERM', onTerm);
      process.off('SIGHUP', onTerm);
      res(code);
    };
    child.on('error', (err) => {
      log(`could not run ${argv[0]}: ${err.message}`);
      done(127);
    });
    child.on('exit', (code, signal) => {
      if (code !== null) done(code);
      else {
        const signals = { SIGHUP: 1, SIGINT: 2, SIGKILL: 9, SIGTERM: 15 };
        done(128 + (signals[signal] ?? 1));
      }
    });
  });
}

async function main() {
  const argv = process.argv.slice(2);
  if (argv.length === 0) {
    process.stderr.write('usage: node scripts/with-postgres.mjs <command> [args...]\n');
    return 2;
  }
  const env = { ...process.env };
  env.PATH = [join(ROOT, 'node_modules', '.bin'), env.PATH].filter(Boolean).join(delimiter);

  if (env.TEST_PG_URL) {
    log('TEST_PG_URL is already set: using that server, not starting a cluster');
    return runCommand(argv, env);
  }

  const binDir = findPgBinDir();
  if (!binDir) {
    loud([
      'PostgreSQL not available: server-postgres tests SKIPPED',
      'No initdb/pg_ctl found (PATH, /usr/lib/postgresql/*/bin).',
      'Install it with: apt-get install -y postgresql   (bash .ci/run does this)',
    ]);
    delete env.TEST_PG_URL;
    // scripts/run-tests.mjs repeats the notice in its summary, so a green run cannot hide the skip.
    if (env.PG_SKIPPED_MARKER) appendFileSync(env.PG_SKIPPED_MARKER, 'no initdb/pg_ctl\n');
    return runCommand(argv, env);
  }

  // Interrupted while the cluster starts: remember it and stop right after.
  let interrupted = null;
  const early = (sig) => {
    interrupted = sig;
  };
  process.on('SIGINT', early);
  process.on('SIGTERM', early);

  let cluster;
  try {
    cluster = await startCluster(binDir);
  } catch (err) {
    loud([
      'PostgreSQL is installed but the throwaway cluster did not start:',
      ...String(err.message).split('\n'),
    ]);
    return 1;
  } finally {
    process.off('SIGINT', early);
    process.off('SIGTERM', early);
  }
  try {
    if (interrupted) return 130;
    env.TEST_PG_URL = cluster.url;
    return await runCommand(argv, env);
  } finally {
    if (process.env.WITH_POSTGRES_SHOW_LOG && existsSync(cluster.logFile)) {
      process.stderr.write(readFileSync(cluster.logFile, 'utf8'));
    }
    stopCluster(cluster);
    log('cluster stopped and removed');
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    log(err?.stack ?? String(err));
    process.exit(1);
  },
);
