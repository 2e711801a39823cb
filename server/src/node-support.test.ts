import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
// npm's own version-range library (in the tree through many packages; untyped here on purpose).
const semver = createRequire(import.meta.url)('semver') as {
  satisfies(version: string, range: string): boolean;
  minVersion(range: string): { version: string } | null;
};

it('every locked package runs on the oldest Node.js the project supports (no EBADENGINE on npm ci)', () => {
  const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  const oldest = semver.minVersion(pkg.engines.node)?.version ?? '';
  expect(oldest).toBe('20.19.0');
  const lock = JSON.parse(readFileSync(path.join(root, 'package-lock.json'), 'utf8'));
  const refusing = Object.entries(lock.packages as Record<string, { engines?: { node?: string } }>)
    .filter(([, p]) => p.engines?.node && !semver.satisfies(oldest, p.engines.node))
    .map(([name, p]) => `${name} wants node ${p.engines?.node}`);
  // content-disposition@3 and cookie@2 want Node 22: package.json's overrides pin the
  // API-identical content-disposition@2 and cookie@1 (docs/decisions/).
  expect(refusing).toEqual([]);
});
