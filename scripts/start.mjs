#!/usr/bin/env node
// `npm start`: builds the web app and the server only when their sources changed since the last
// build, quietly (the build's ~250 lines are printed only when it fails), then runs the server.
//
// A build is skipped when the SHA-256 of its inputs (file paths and contents) equals the stamp the
// last successful build wrote into its output folder. Content, not modification times: a checkout or
// a copy touches every file without changing one. `FORCE_BUILD=1` builds anyway.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SKIP_DIRS = new Set(['node_modules', 'dist', 'dist-ssr', '.vite', 'coverage']);

/** Every file under the given paths (files or folders), sorted, test files included (cheap, and safe). */
function files(paths) {
  const out = [];
  const walk = (p) => {
    if (!existsSync(p)) return;
    if (statSync(p).isDirectory()) {
      for (const name of readdirSync(p)) if (!SKIP_DIRS.has(name)) walk(path.join(p, name));
    } else out.push(p);
  };
  for (const p of paths) walk(path.join(root, p));
  return out.sort();
}

function fingerprint(paths) {
  const hash = createHash('sha256');
  for (const f of files(paths))
    hash.update(path.relative(root, f)).update('\0').update(readFileSync(f)).update('\0');
  return hash.digest('hex');
}

const shared = ['contract/src', 'contract/package.json', 'package-lock.json'];
const targets = [
  {
    name: 'web app',
    workspace: 'web',
    stamp: 'web/dist/.build-stamp',
    inputs: [
      ...shared,
      'web/src',
      'web/public',
      'web/build',
      'web/index.html',
      'web/vite.config.ts',
      'web/package.json',
      'web/tsconfig.json',
    ],
  },
  {
    name: 'server',
    workspace: 'server',
    stamp: 'server/dist/.build-stamp',
    inputs: [...shared, 'server/src', 'server/build.mjs', 'server/package.json'],
  },
];

for (const t of targets) {
  const want = fingerprint(t.inputs);
  const stampFile = path.join(root, t.stamp);
  const have = existsSync(stampFile) ? readFileSync(stampFile, 'utf8').trim() : '';
  if (have === want && process.env.FORCE_BUILD !== '1') continue;
  process.stdout.write(`Building the ${t.name}…\n`);
  const r = spawnSync('npm', ['run', 'build', '-w', t.workspace], { cwd: root, encoding: 'utf8' });
  if (r.status !== 0) {
    process.stdout.write(r.stdout ?? '');
    process.stderr.write(r.stderr ?? '');
    process.stderr.write(`Building the ${t.name} failed (output above).\n`);
    process.exit(r.status ?? 1);
  }
  writeFileSync(stampFile, `${want}\n`);
}

// The server in the foreground: signals go to it, and its exit code is ours.
const server = spawn(process.execPath, [path.join(root, 'server/dist/main.js')], {
  cwd: root,
  stdio: 'inherit',
});
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => server.kill(sig));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
