import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';

const engineDir = path.join(import.meta.dirname, 'engine');
const serverSrc = path.resolve(import.meta.dirname, '../..');
/** What the engine may import: the app's shared layers and packages, never another module. */
const ALLOWED = ['platform', 'db', 'ai'].map((d) => path.join(serverSrc, d) + path.sep);

it('the run engine imports no other module (steps and ports are wired in by app.ts)', () => {
  const offending: string[] = [];
  for (const file of readdirSync(engineDir).filter((f) => f.endsWith('.ts'))) {
    const text = readFileSync(path.join(engineDir, file), 'utf8');
    for (const [, spec] of text.matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)) {
      if (!spec.startsWith('.')) continue;
      const target = path.resolve(engineDir, spec);
      const inEngine = target.startsWith(engineDir + path.sep);
      if (!inEngine && !ALLOWED.some((dir) => target.startsWith(dir))) offending.push(`${file} → ${spec}`);
    }
  }
  expect(offending).toEqual([]);
});
