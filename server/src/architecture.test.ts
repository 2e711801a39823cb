import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The server's layering rules (ARCHITECTURE.md section 2, docs/architecture.md), checked on the
 * source itself: plain file reads, no app. Test files are left out: nothing imports them.
 */

const SRC = dirname(fileURLToPath(import.meta.url));

/** A source file: its path relative to server/src (with '/') and its text. */
interface SourceFile {
  path: string;
  text: string;
}

function sourceFiles(dir: string = SRC): SourceFile[] {
  const out: SourceFile[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(full));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) {
      out.push({ path: relative(SRC, full).split('\\').join('/'), text: readFileSync(full, 'utf8') });
    }
  }
  return out;
}

/** Comments removed, so an import or a query named in a comment is not counted. */
function withoutComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
}

/**
 * The relative imports of a file that exist at run time, resolved against its folder. `import type`
 * statements are left out: TypeScript erases them, so they cannot form a loading cycle.
 */
export function runtimeImports(file: SourceFile): string[] {
  return relativeImports(file, false);
}

/** Every relative import of a file, `import type` included: what its code depends on. */
export function allImports(file: SourceFile): string[] {
  return relativeImports(file, true);
}

function relativeImports(file: SourceFile, withTypes: boolean): string[] {
  const text = withoutComments(file.text);
  const specs: string[] = [];
  const statement = /(?:^|;|\n)\s*(import|export)\s+(type\s+)?([^'";]*?)\s*from\s*['"]([^'"]+)['"]/g;
  for (const m of text.matchAll(statement)) if (withTypes || !m[2]) specs.push(m[4]);
  for (const m of text.matchAll(/(?:^|\n)\s*import\s*['"]([^'"]+)['"]/g)) specs.push(m[1]);
  for (const m of text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)) specs.push(m[1]);
  return specs
    .filter((s) => s.startsWith('.'))
    .map((s) =>
      relative(SRC, resolve(SRC, dirname(file.path), s))
        .split('\\')
        .join('/'),
    );
}

/** The module a file belongs to (`modules/<name>/…`), or null. */
export function moduleOf(path: string): string | null {
  const m = /^modules\/([^/]+)\//.exec(path);
  return m ? m[1] : null;
}

/**
 * The import cycles that span files of more than one module: for each strongly connected group of
 * the import graph that holds files of two or more modules, one cycle through it (as a path that ends
 * where it starts). A cycle inside one module, or through shared code only, is not reported.
 */
export function crossModuleCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const cycles: string[][] = [];
  for (const group of stronglyConnectedGroups(graph)) {
    const members = new Set(group);
    const modules = new Set(group.map(moduleOf).filter((m) => m !== null));
    if (group.length < 2 || modules.size < 2) continue;
    // Start on an edge out of a module, preferably into another module, so the cycle shown crosses one.
    const edges = group
      .filter((u) => moduleOf(u) !== null)
      .sort()
      .flatMap((u) =>
        (graph.get(u) ?? []).filter((w) => members.has(w) && moduleOf(w) !== moduleOf(u)).map((w) => [u, w]),
      );
    const [u, w] = edges.find(([, to]) => moduleOf(to) !== null) ?? edges[0];
    cycles.push([u, ...pathWithin(graph, members, w, u)]);
  }
  return cycles;
}

/**
 * The dependencies between module folders: a module is one node (`modules/<name>`), every other file
 * its own, and an edge is any import, `import type` included (a type is a dependency on what its
 * module means). Files under `leftOut` are not in the graph.
 */
export function moduleGraph(
  graph: ReadonlyMap<string, readonly string[]>,
  leftOut: readonly string[] = [],
): Map<string, string[]> {
  const kept = (p: string) => !leftOut.some((prefix) => p.startsWith(prefix));
  const node = (p: string) => (moduleOf(p) === null ? p : `modules/${moduleOf(p)}`);
  const edges = new Map<string, Set<string>>();
  for (const [from, deps] of graph) {
    if (!kept(from)) continue;
    const out = edges.get(node(from)) ?? new Set<string>();
    edges.set(node(from), out);
    for (const dep of deps) if (kept(dep) && node(dep) !== node(from)) out.add(node(dep));
  }
  return new Map([...edges].map(([k, v]) => [k, [...v].sort()]));
}

/**
 * The loops of a module graph that hold a module: one path through each, shortest first from the
 * first module in it (modules that depend on each other, directly or through shared code).
 */
export function moduleCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  return stronglyConnectedGroups(graph)
    .filter((g) => g.length > 1 && g.some((n) => n.startsWith('modules/')))
    .map((group) => {
      const members = new Set(group);
      const [u] = group.filter((n) => n.startsWith('modules/')).sort();
      const w = (graph.get(u) ?? []).find((x) => members.has(x)) as string;
      return [u, ...pathWithin(graph, members, w, u)];
    });
}

/** Every import cycle, inside a module or not: one path through each strongly connected group. */
export function allCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  return stronglyConnectedGroups(graph)
    .filter((g) => g.length > 1)
    .map((group) => {
      const members = new Set(group);
      const [u] = [...group].sort();
      const w = (graph.get(u) ?? []).find((x) => members.has(x)) as string;
      return [u, ...pathWithin(graph, members, w, u)];
    });
}

/** The strongly connected groups of the import graph (Tarjan), files that import each other round. */
function stronglyConnectedGroups(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  let next = 0;
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) as number, low.get(w) as number));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) as number, index.get(w) as number));
    }
    if (low.get(v) === index.get(v)) {
      const group: string[] = [];
      let w: string;
      do {
        w = stack.pop() as string;
        onStack.delete(w);
        group.push(w);
      } while (w !== v);
      groups.push(group);
    }
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return groups;
}

/** The shortest import path from `from` to `to` inside one strongly connected group (breadth first). */
function pathWithin(
  graph: ReadonlyMap<string, readonly string[]>,
  group: Set<string>,
  from: string,
  to: string,
) {
  const parent = new Map<string, string | null>([[from, null]]);
  const queue = [from];
  while (queue.length && !parent.has(to)) {
    const v = queue.shift() as string;
    for (const w of graph.get(v) ?? []) {
      if (group.has(w) && !parent.has(w)) {
        parent.set(w, v);
        queue.push(w);
      }
    }
  }
  const path: string[] = [];
  for (let at: string | null | undefined = to; at; at = parent.get(at)) path.unshift(at);
  return path;
}

/** The tables of the schema (from db/types.ts), so raw SQL in ai/ that names one is caught. */
const TABLE_NAMES: ReadonlySet<string> = new Set(
  [
    ...withoutComments(readFileSync(join(SRC, 'db/types.ts'), 'utf8')).matchAll(
      /^\s+([a-z_]+):\s*[A-Z]\w*Table;/gm,
    ),
  ].map((m) => m[1]),
);

/** The bodies of the raw `sql` templates of a text. */
function rawSql(text: string): string[] {
  return [...text.matchAll(/\bsql(?:<[^`]*?>)?`([^`]*)`/g)].map((m) => m[1]);
}

const files = sourceFiles();
const importGraph = new Map(files.map((f) => [f.path, runtimeImports(f)]));

/**
 * `ai/` still composes modules and is used by them (its split into a runtime that imports no module
 * and an assistant module is issue 48 §4, another part): until then it is left out of the module loops.
 */
const NOT_YET_IN_MODULE_GRAPH = ['ai/'];

describe('the layering rules', () => {
  it('finds the source (the checks below are not vacuous)', () => {
    expect(files.some((f) => f.path === 'modules/tasks/tasks.service.ts')).toBe(true);
    expect(files.filter((f) => f.path.startsWith('ai/')).length).toBeGreaterThan(10);
    expect(importGraph.get('modules/tasks/tasks.repository.ts')).toContain('modules/tasks/tasks.policy.ts');
  });

  it('has no import cycle between files of different modules', () => {
    const report = crossModuleCycles(importGraph).map((c) => c.join(' → '));
    expect(report, `import cycles across modules:\n${report.join('\n')}`).toEqual([]);
  });

  // Modules that depend on each other cannot be read, changed or tested one at a time: a module that
  // others need (the ledger, the inbox, memberships) imports none of them; what it needs of them comes
  // as a port or a registration from app.ts (docs/architecture.md, "Registrations").
  it('has no loop between modules, counting type imports and paths through shared code', () => {
    const graph = moduleGraph(new Map(files.map((f) => [f.path, allImports(f)])), NOT_YET_IN_MODULE_GRAPH);
    expect(graph.get('modules/activity')).toBeDefined();
    const report = moduleCycles(graph).map((c) => c.join(' → '));
    expect(report, `loops between modules:\n${report.join('\n')}`).toEqual([]);
  });

  // Files that load each other in a circle start half-initialised and hide who depends on whom
  // (issue 16 found users ↔ organizations ↔ files); not even inside one module.
  it('has no import cycle at all', () => {
    const report = allCycles(importGraph).map((c) => c.join(' → '));
    expect(report, `import cycles:\n${report.join('\n')}`).toEqual([]);
  });

  it('lets no file in ai/ query a table or import a repository', () => {
    const offences: string[] = [];
    for (const f of files.filter((x) => x.path.startsWith('ai/'))) {
      const text = withoutComments(f.text);
      for (const m of text.matchAll(/\.(selectFrom|insertInto|updateTable|deleteFrom)\s*\(/g)) {
        offences.push(`${f.path} calls ${m[1]}`);
      }
      // Raw SQL may read the full-text index (search_documents, search_fts) and nothing else.
      for (const body of rawSql(text)) {
        for (const m of body.matchAll(/\b(?:from|join|into|update)\s+([a-z_]+)\b/gi)) {
          const table = m[1].toLowerCase();
          if (TABLE_NAMES.has(table) && table !== 'search_documents')
            offences.push(`${f.path} reads ${table}`);
        }
      }
      for (const dep of importGraph.get(f.path) ?? []) {
        if (dep.endsWith('.repository.ts')) offences.push(`${f.path} imports ${dep}`);
      }
    }
    expect(offences).toEqual([]);
  });

  it("never lets a module import another module's repository", () => {
    const offences: string[] = [];
    for (const [path, deps] of importGraph) {
      const own = moduleOf(path);
      if (own === null) continue;
      for (const dep of deps) {
        if (dep.endsWith('.repository.ts') && moduleOf(dep) !== null && moduleOf(dep) !== own) {
          offences.push(`${path} imports ${dep}`);
        }
      }
    }
    expect(offences).toEqual([]);
  });
});

describe('the checks themselves', () => {
  const file = (path: string, text: string) => ({ path, text });

  it('reads runtime imports, resolved, and leaves out type-only ones and comments', () => {
    const f = file(
      'modules/a/a.service.ts',
      [
        "import { x } from '../b/b.service.ts';",
        "import type { T } from '../c/c.service.ts';",
        "export { y } from './a.policy.ts';",
        "import './a.side-effect.ts';",
        "// import { z } from '../d/d.service.ts';",
        "const m = await import('../../ai/tools/index.ts');",
      ].join('\n'),
    );
    expect(runtimeImports(f).sort()).toEqual(
      [
        'modules/b/b.service.ts',
        'modules/a/a.policy.ts',
        'modules/a/a.side-effect.ts',
        'ai/tools/index.ts',
      ].sort(),
    );
  });

  it('reads type imports as dependencies of a module', () => {
    const f = file(
      'modules/a/a.service.ts',
      ["import { x } from '../b/b.service.ts';", "import type { T } from '../c/c.service.ts';"].join('\n'),
    );
    expect(allImports(f).sort()).toEqual(['modules/b/b.service.ts', 'modules/c/c.service.ts']);
  });

  it('reports a loop between module folders, by type import or through shared code, and not the rest', () => {
    const imports = new Map<string, string[]>([
      // a → b by a value import, b → a by a type import of another file: a loop of folders, not of files.
      ['modules/a/a.service.ts', ['modules/b/b.service.ts', 'modules/a/a.repository.ts']],
      ['modules/a/a.types.ts', []],
      ['modules/a/a.repository.ts', []],
      ['modules/b/b.service.ts', ['modules/a/a.types.ts']],
      // c → platform → d → c: a loop through shared code.
      ['modules/c/c.service.ts', ['platform/x.ts']],
      ['platform/x.ts', ['modules/d/d.service.ts']],
      ['modules/d/d.service.ts', ['modules/c/c.policy.ts']],
      ['modules/c/c.policy.ts', []],
      // e → left-out code → e is not counted; nor is a loop of shared files only.
      ['modules/e/e.service.ts', ['ai/y.ts']],
      ['ai/y.ts', ['modules/e/e.policy.ts']],
      ['modules/e/e.policy.ts', []],
      ['db/p.ts', ['db/q.ts']],
      ['db/q.ts', ['db/p.ts']],
    ]);
    const graph = moduleGraph(imports, ['ai/']);
    expect(graph.get('modules/a')).toEqual(['modules/b']);
    expect(moduleCycles(graph)).toEqual([
      ['modules/a', 'modules/b', 'modules/a'],
      ['modules/c', 'platform/x.ts', 'modules/d', 'modules/c'],
    ]);
    imports.set('modules/b/b.service.ts', []);
    imports.set('platform/x.ts', []);
    expect(moduleCycles(moduleGraph(imports, ['ai/']))).toEqual([]);
  });

  it('reports a cycle across modules (also through shared code) and not one inside a module', () => {
    const graph = new Map<string, string[]>([
      ['modules/a/a.service.ts', ['modules/b/b.service.ts', 'modules/a/a.repository.ts']],
      ['modules/a/a.repository.ts', ['modules/a/a.service.ts']],
      ['modules/b/b.service.ts', ['platform/x.ts']],
      ['platform/x.ts', ['modules/a/a.service.ts']],
      ['modules/c/c.service.ts', ['modules/c/c.policy.ts']],
      ['modules/c/c.policy.ts', ['modules/c/c.service.ts']],
    ]);
    expect(crossModuleCycles(graph)).toEqual([
      ['modules/a/a.service.ts', 'modules/b/b.service.ts', 'platform/x.ts', 'modules/a/a.service.ts'],
    ]);
    expect(
      allCycles(graph)
        .map((c) => c[0])
        .sort(),
    ).toEqual(['modules/a/a.repository.ts', 'modules/c/c.policy.ts']);
    graph.set('platform/x.ts', []);
    expect(crossModuleCycles(graph)).toEqual([]);
  });
});
