#!/usr/bin/env node
// Keeps `npm ci` working when the npm registry in use does not serve every platform build of a native
// package (e.g. a mirror with only linux-x64/arm64 glibc builds of @biomejs/cli-*).
//
// npm install then writes a package-lock.json without the unavailable optional platform packages, and
// `npm ci` (npm 11) refuses that lock: "Missing: @biomejs/cli-darwin-arm64@ from lock file"
// (npm/cli#9846). This script asks `npm ci --dry-run --ignore-scripts` which packages it misses and, for
// each one that is an optional dependency whose name says its platform
// (`<name>-<os>-<cpu>[-musl|-gnu|-msvc|-eabi]`), adds a lock entry with that os/cpu/libc, so `npm ci`
// simply skips it on other platforms. The entries survive later `npm install` runs.
//
//   node scripts/lockfile-optional-platforms.mjs           # report what npm ci misses (exit 1 if any)
//   node scripts/lockfile-optional-platforms.mjs --write   # add the entries, then check again

import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const LOCK = join(ROOT, 'package-lock.json');
const OS = [
  'android',
  'darwin',
  'freebsd',
  'linux',
  'netbsd',
  'openbsd',
  'sunos',
  'win32',
  'aix',
  'openharmony',
];
const CPU = ['arm64', 'x64', 'ia32', 'arm', 'loong64', 'mips64el', 'ppc64', 'riscv64', 's390x', 'wasm32'];

/** `@biomejs/cli-linux-x64-musl` -> { os: 'linux', cpu: 'x64', libc: 'musl' }, or null. */
function platformOf(name) {
  const parts = name.split('/').pop().split('-');
  for (let i = 0; i < parts.length - 1; i++) {
    if (OS.includes(parts[i]) && CPU.includes(parts[i + 1])) {
      const suffix = parts[i + 2];
      const libc = parts[i] === 'linux' ? (suffix === 'musl' ? 'musl' : 'glibc') : null;
      return { os: parts[i], cpu: parts[i + 1], libc };
    }
  }
  return null;
}

/** Where npm would look for `dep` required by the package at `from` (nested first, then up). */
function resolvedIn(packages, from, dep) {
  let base = from;
  for (;;) {
    const key = base ? `${base}/node_modules/${dep}` : `node_modules/${dep}`;
    if (packages[key]) return key;
    if (!base) return null;
    const idx = base.lastIndexOf('/node_modules/');
    base = idx === -1 ? '' : base.slice(0, idx);
  }
}

/** The package names `npm ci` reports as missing from the lock (needs the registry; changes nothing). */
function missingForNpmCi() {
  const r = spawnSync('npm', ['ci', '--dry-run', '--ignore-scripts', '--no-audit', '--no-fund'], {
    cwd: ROOT,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const out = `${r.stdout}\n${r.stderr}`;
  const names = [...out.matchAll(/Missing: (@?[^@\s]+)@\S* from lock file/g)].map((m) => m[1]);
  if (r.status !== 0 && names.length === 0) {
    throw new Error(`npm ci --dry-run failed for another reason:\n${out.split('\n').slice(-15).join('\n')}`);
  }
  return names;
}

const missing = missingForNpmCi();
if (!missing.length) {
  console.log('npm ci accepts package-lock.json: nothing to do');
  process.exit(0);
}
const lock = JSON.parse(readFileSync(LOCK, 'utf8'));
const packages = lock.packages ?? {};
const additions = [];
const unknown = [];
for (const dep of missing) {
  const parentKey = Object.keys(packages).find(
    (k) => packages[k].optionalDependencies?.[dep] && !resolvedIn(packages, k, dep),
  );
  const parent = parentKey === undefined ? null : packages[parentKey];
  const spec = parent?.optionalDependencies[dep] ?? '';
  const platform = platformOf(dep);
  if (!parent || !platform || !/^\d+\.\d+\.\d+(-[\w.]+)?$/.test(spec) || packages[`node_modules/${dep}`]) {
    unknown.push(`${dep}${spec ? `@${spec}` : ''}`);
    continue;
  }
  const entry = { version: spec, cpu: [platform.cpu] };
  if (parent.dev) entry.dev = true;
  if (platform.libc) entry.libc = [platform.libc];
  if (parent.license) entry.license = parent.license;
  entry.optional = true;
  entry.os = [platform.os];
  if (parent.engines) entry.engines = parent.engines;
  additions.push([`node_modules/${dep}`, entry]);
}

for (const [k, e] of additions)
  console.log(`missing: ${k}@${e.version} (${e.os}/${e.cpu}${e.libc ? `/${e.libc}` : ''})`);
for (const u of unknown) console.log(`missing, not an optional platform package (fix by hand): ${u}`);
if (!process.argv.includes('--write')) {
  console.log(
    `\n${missing.length} package(s) missing for npm ci: run with --write to add the platform entries`,
  );
  process.exit(1);
}
for (const [k, e] of additions) packages[k] = e;
// Keep npm's order: the root package first, then keys sorted.
lock.packages = Object.fromEntries(
  Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b, 'en'))),
);
writeFileSync(LOCK, `${JSON.stringify(lock, null, 2)}\n`);
const left = missingForNpmCi();
console.log(
  `\npackage-lock.json: added ${additions.length} entries; npm ci --dry-run now misses ${left.length}`,
);
process.exit(left.length ? 1 : 0);
