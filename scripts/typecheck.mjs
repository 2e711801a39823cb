#!/usr/bin/env node
// `npm run typecheck`: `tsc --noEmit` for each workspace in turn, one progress line each (tsc itself
// prints nothing until it finds an error, and the whole check takes about a minute on two cores).
import { spawnSync } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const PROJECTS = ['contract', 'server', 'web', 'e2e', 'bench'];
const tsc = resolve(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');

let failed = 0;
for (const project of PROJECTS) {
  const started = Date.now();
  const r = spawnSync(process.execPath, [tsc, '-p', project, '--noEmit'], { cwd: ROOT, stdio: 'inherit' });
  const secs = ((Date.now() - started) / 1000).toFixed(0);
  console.log(`typecheck ${project.padEnd(8)} ${r.status === 0 ? 'ok' : 'FAILED'} (${secs} s)`);
  if (r.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
