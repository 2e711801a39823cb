import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Module services that import each other in a circle load half-initialised and hide who depends on
// whom (issue 16 §1: users ↔ organizations ↔ files). This reads the runtime imports (not `import type`)
// of every server source file and fails on any cycle.
const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(p);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [p] : [];
  });
}

const IMPORT = /^import\s+(?!type\b)[^;]*?from\s+'(\.[^']+)'/gms;

function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(SRC)) {
    const text = readFileSync(file, 'utf8');
    const deps = [...text.matchAll(IMPORT)].map((m) => path.resolve(path.dirname(file), m[1]));
    graph.set(file, deps);
  }
  return graph;
}

function cycles(graph: Map<string, string[]>): string[][] {
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (u: string) => {
    state.set(u, 'open');
    stack.push(u);
    for (const v of graph.get(u) ?? []) {
      if (state.get(v) === 'open') found.push([...stack.slice(stack.indexOf(v)), v]);
      else if (!state.has(v)) visit(v);
    }
    stack.pop();
    state.set(u, 'done');
  };
  for (const u of graph.keys()) if (!state.has(u)) visit(u);
  return found;
}

describe('server imports', () => {
  it('no source file imports itself through a circle of runtime imports', () => {
    const graph = importGraph();
    expect(graph.size).toBeGreaterThan(50);
    const rel = (p: string) => path.relative(SRC, p);
    expect(cycles(graph).map((c) => c.map(rel).join(' -> '))).toEqual([]);
  });
});
