#!/usr/bin/env node
// The full test run (`npm test`): each step in order, stopping at the first failure, then one summary
// line `N passed, N failed` (the last line of the output, for CI to read).
//
//   typecheck -> lint -> unit (contract + web) -> api (SQLite + PostgreSQL)
//     -> faults (the built server under real faults: server/faults/) -> e2e (build + Playwright)
//
// Test counts come from the Vitest JSON reporter (added to the unit and api steps on the command line)
// and from the Playwright JSON reporter (configured in e2e/playwright.config.ts). A step that fails
// without a failed test in its report (type errors, lint, a crash) counts as one failure.
//
//   node scripts/run-tests.mjs                 # everything
//   node scripts/run-tests.mjs unit api        # only the named steps, same order

import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const REPORTS = mkdtempSync(join(tmpdir(), 'cc-test-reports-'));
const E2E_ARTIFACTS = process.env.E2E_ARTIFACTS_DIR
  ? resolve(process.env.E2E_ARTIFACTS_DIR)
  : join(ROOT, 'e2e', 'artifacts');
const PLAYWRIGHT_JSON = join(E2E_ARTIFACTS, 'results.json');

const vitestJson = (name) => {
  const file = join(REPORTS, `${name}.json`);
  return { file, args: ['--', '--reporter=default', '--reporter=json', `--outputFile.json=${file}`] };
};

/** Written by scripts/with-postgres.mjs when PostgreSQL is not installed and its suite was skipped. */
const PG_SKIPPED = join(REPORTS, 'postgres-skipped');

const unitReport = vitestJson('unit');
const apiReport = vitestJson('api');
const faultsReport = vitestJson('faults');

/** @type {{name: string, script: string, args?: string[], report?: {kind: 'vitest'|'playwright', file: string}}[]} */
const STEPS = [
  { name: 'typecheck', script: 'typecheck' },
  { name: 'lint', script: 'lint' },
  {
    name: 'unit',
    script: 'test:unit',
    args: unitReport.args,
    report: { kind: 'vitest', file: unitReport.file },
  },
  { name: 'api', script: 'test:api', args: apiReport.args, report: { kind: 'vitest', file: apiReport.file } },
  {
    name: 'faults',
    script: 'test:faults',
    args: faultsReport.args,
    report: { kind: 'vitest', file: faultsReport.file },
  },
  { name: 'e2e', script: 'test:e2e', report: { kind: 'playwright', file: PLAYWRIGHT_JSON } },
];

let current = null;
let stopping = false;
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, () => {
    stopping = true;
    if (current && current.exitCode === null) current.kill(sig);
  });
}

function run(script, args = []) {
  return new Promise((res) => {
    const env = { ...process.env, PG_SKIPPED_MARKER: PG_SKIPPED };
    const child = spawn('npm', ['run', script, ...args], { cwd: ROOT, stdio: 'inherit', env });
    current = child;
    child.on('error', () => res(127));
    child.on('exit', (code, signal) => res(code ?? (signal ? 128 : 1)));
  });
}

/**
 * The skipped tests of a Vitest report, as `file (n)` per file: the summary says what was skipped, so a
 * skip on purpose (an engine-specific suite) is told apart from one nobody meant.
 * @returns {string[]}
 */
function skippedFiles(report) {
  if (report?.kind !== 'vitest' || !existsSync(report.file)) return [];
  try {
    const data = JSON.parse(readFileSync(report.file, 'utf8'));
    const byFile = new Map();
    for (const file of data.testResults ?? []) {
      const n = (file.assertionResults ?? []).filter((t) =>
        ['pending', 'skipped', 'todo'].includes(t.status),
      ).length;
      if (!n) continue;
      const name = file.name.startsWith(ROOT) ? file.name.slice(ROOT.length + 1) : file.name;
      byFile.set(name, (byFile.get(name) ?? 0) + n);
    }
    return [...byFile].map(([name, n]) => `${name} (${n})`);
  } catch {
    return [];
  }
}

/** @returns {{passed: number, failed: number, skipped: number} | null} */
function readCounts(report) {
  if (!report || !existsSync(report.file)) return null;
  try {
    const data = JSON.parse(readFileSync(report.file, 'utf8'));
    if (report.kind === 'vitest') {
      return {
        passed: data.numPassedTests ?? 0,
        failed: data.numFailedTests ?? 0,
        skipped: (data.numPendingTests ?? 0) + (data.numTodoTests ?? 0),
      };
    }
    const s = data.stats ?? {};
    return { passed: (s.expected ?? 0) + (s.flaky ?? 0), failed: s.unexpected ?? 0, skipped: s.skipped ?? 0 };
  } catch {
    return null;
  }
}

async function main() {
  const only = process.argv.slice(2);
  const steps = only.length ? STEPS.filter((s) => only.includes(s.name)) : STEPS;
  if (only.length && steps.length !== only.length) {
    console.error(`unknown step in ${only.join(', ')}; steps are ${STEPS.map((s) => s.name).join(', ')}`);
    return 2;
  }
  const totals = { passed: 0, failed: 0, skipped: 0 };
  const lines = [];
  const skipped = [];
  let exitCode = 0;
  for (const step of steps) {
    if (stopping) break;
    if (step.report?.kind === 'playwright') rmSync(step.report.file, { force: true });
    const started = Date.now();
    console.log(`\n==> [run-tests] ${step.name}: npm run ${step.script}\n`);
    const code = await run(step.script, step.args);
    const secs = ((Date.now() - started) / 1000).toFixed(0);
    const counts = readCounts(step.report);
    for (const f of skippedFiles(step.report)) skipped.push(`${step.name}: ${f}`);
    let failed = counts?.failed ?? 0;
    if (code !== 0 && failed === 0) failed = 1; // a failed step always shows as a failure
    totals.passed += counts?.passed ?? 0;
    totals.failed += failed;
    totals.skipped += counts?.skipped ?? 0;
    const detail = counts
      ? ` (${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped)`
      : '';
    lines.push(`  ${code === 0 ? 'ok  ' : 'FAIL'} ${step.name.padEnd(10)} ${secs.padStart(4)} s${detail}`);
    if (code !== 0) {
      exitCode = code;
      const rest = steps.slice(steps.indexOf(step) + 1).map((s) => s.name);
      if (rest.length) lines.push(`  stopped at the first failure; not run: ${rest.join(', ')}`);
      break;
    }
  }
  if (stopping && exitCode === 0) exitCode = 130;
  const pgSkipped = existsSync(PG_SKIPPED);
  rmSync(REPORTS, { recursive: true, force: true });
  console.log(`\n==> [run-tests] summary\n${lines.join('\n')}`);
  if (totals.skipped) {
    // Engine-specific suites skip themselves on the other engine (a PostgreSQL-only test on SQLite).
    console.log(`  ${totals.skipped} skipped, by file (engine-specific suites skip on the other engine):`);
    for (const line of skipped) console.log(`    ${line}`);
  }
  if (pgSkipped) {
    // Not a failure (a machine without PostgreSQL can still test SQLite), but never a silent one.
    console.log(
      [
        '',
        '  !!! PostgreSQL is not installed: the server-postgres API suite was SKIPPED !!!',
        '  !!! Install it (apt-get install -y postgresql; bash .ci/run does) or set TEST_PG_URL.  !!!',
        '',
      ].join('\n'),
    );
  }
  console.log(`${totals.passed} passed, ${totals.failed} failed`);
  return exitCode;
}

main().then((code) => process.exit(code));
