import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The server's V8 setting (allocation-site pretenuring off, v8-heap-tuning.ts) must be made before the
 * app's modules run: main.ts imports it first. Its effect on the heap is measured by the bench (the
 * realistic misses), not here.
 */
describe('V8 heap tuning at start', () => {
  it('is the first import of the server entry point', () => {
    const main = readFileSync(fileURLToPath(new URL('../main.ts', import.meta.url)), 'utf8');
    const imports = [...main.matchAll(/^import\s+(?:[^'"]*from\s+)?['"]([^'"]+)['"]/gm)].map((m) => m[1]);
    expect(imports[0]).toBe('./platform/v8-heap-tuning.ts');
  });

  it('turns allocation-site pretenuring off', () => {
    const source = readFileSync(fileURLToPath(new URL('./v8-heap-tuning.ts', import.meta.url)), 'utf8');
    expect(source).toMatch(/v8\.setFlagsFromString\('--no-allocation-site-pretenuring'\)/);
    expect(source).toMatch(/^tuneHeapForRequests\(\);$/m);
  });
});
