import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * No AsyncLocalStorage (nor any other async_hooks hook) in the server. On Node 20 the first
 * `AsyncLocalStorage.run` turns on V8 promise hooks for the whole process: from then on every promise
 * pays an init hook and a store propagation (about 7 % of the server's CPU on a chat turn). What a
 * call needs from its request (whom a model call is metered to, the ledger's `via`) is passed
 * explicitly instead. Fastify's own AsyncResource is fine: it costs nothing while no hook is on.
 */

const SRC = dirname(fileURLToPath(import.meta.url));

/** Comments removed: a comment may name what it avoids. */
function withoutComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
}

function serverFiles(dir: string = SRC): { path: string; text: string }[] {
  const out: { path: string; text: string }[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...serverFiles(full));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) {
      out.push({
        path: relative(SRC, full).split('\\').join('/'),
        text: withoutComments(readFileSync(full, 'utf8')),
      });
    }
  }
  return out;
}

describe('no async hooks in the server (promise hooks cost on Node 20)', () => {
  const files = serverFiles();

  it('reads the server source', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(files.some((f) => f.path === 'platform/response-cache.ts')).toBe(true);
  });

  it('no server file uses async_hooks', () => {
    const offenders = files
      .filter((f) => /AsyncLocalStorage|async_hooks|createHook\s*\(/.test(f.text))
      .map((f) => f.path);
    expect(offenders).toEqual([]);
  });
});
