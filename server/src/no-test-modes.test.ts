import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Production code never behaves differently under test: no server file branches on `NODE_ENV` being
 * `test` or on `VITEST`. Tests run the production path and compare its answers with plain queries or
 * fresh reads in the test itself (docs/decisions/232-…).
 */

const SRC = dirname(fileURLToPath(import.meta.url));

/** The server's non-test sources, comments removed (a comment may name what it avoids). */
function serverFiles(dir: string = SRC): { path: string; text: string }[] {
  const out: { path: string; text: string }[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...serverFiles(full));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) {
      const text = readFileSync(full, 'utf8')
        .replace(/\/\*[\s\S]*?\*\//g, '')
        .replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
      out.push({ path: relative(SRC, full).split('\\').join('/'), text });
    }
  }
  return out;
}

describe('no test modes in the server', () => {
  const files = serverFiles();

  it('reads the server source', () => {
    expect(files.length).toBeGreaterThan(100);
  });

  it('no server file branches on NODE_ENV=test or VITEST', () => {
    const offenders = files
      .filter((f) => /NODE_ENV\s*[!=]==?\s*['"]test['"]|\bVITEST\b/.test(f.text))
      .map((f) => f.path);
    expect(offenders).toEqual([]);
  });
});
