import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * The lint rule of biome.json that keeps web features apart: a file in web/src/features/A may not
 * import from web/src/features/B (routes in web/src/app compose features). Biome matches import
 * specifiers as written, so the rule is one override per folder depth; these tests lint planted files
 * with the repository's own biome.json, and check that every feature file lies within a covered depth.
 */
/** The repository root: vitest runs from it, or from web/ (its project root). */
const root =
  [process.cwd(), join(process.cwd(), '..')].find((dir) => existsSync(join(dir, 'biome.json'))) ?? '';
const biome = join(root, 'node_modules', '.bin', 'biome');
const config = JSON.parse(readFileSync(join(root, 'biome.json'), 'utf8')) as {
  $schema?: string;
  overrides: { includes: string[] }[];
};
const RULE_MESSAGE = 'Web features may not import each other';

const sandbox = mkdtempSync(join(tmpdir(), 'feature-boundaries-'));
afterAll(() => rmSync(sandbox, { recursive: true, force: true }));

/** Lints the files (path → source) in a sandbox with the repository's biome.json; the failing paths. */
function violations(files: Record<string, string>): string[] {
  const dir = mkdtempSync(join(sandbox, 'case-'));
  const { $schema: _schema, ...rest } = config;
  writeFileSync(join(dir, 'biome.json'), JSON.stringify(rest));
  for (const [path, source] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), source);
  }
  let out: string;
  try {
    out = execFileSync(biome, ['lint', '--max-diagnostics=200', 'web'], {
      cwd: dir,
      encoding: 'utf8',
      stdio: 'pipe',
    });
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string };
    out = `${e.stdout ?? ''}${e.stderr ?? ''}`;
  }
  const blocks = out.split(/\n(?=\S+\.tsx?:\d+:\d+ )/);
  return blocks
    .filter((b) => b.includes('lint/style/noRestrictedImports') && b.includes(RULE_MESSAGE))
    .map((b) => b.slice(0, b.indexOf(':')).trim());
}

const importing = (spec: string) => `import { x } from '${spec}';\nexport { x };\n`;

describe('web feature boundaries (biome.json)', () => {
  it('refuses an import of another feature at every folder depth, static, dynamic and re-exported', () => {
    const planted = {
      'web/src/features/tasks/plant-a.ts': importing('../conversations/api'),
      'web/src/features/tasks/components/plant-b.tsx': importing('../../organization/api'),
      'web/src/features/tasks/components/deep/plant-c.ts': `export { y } from '../../../files/api';\n`,
      'web/src/features/tasks/components/deep/er/plant-d.ts': `export const z = () => import('../../../../runs/api');\n`,
    };
    expect(violations(planted).sort()).toEqual(Object.keys(planted).sort());
  });

  it('allows imports inside the feature and of lib, components and the contract', () => {
    expect(
      violations({
        'web/src/features/tasks/ok-a.ts': `${importing('./api')}${importing('../../lib/api').replace(/x/g, 'y')}`,
        'web/src/features/tasks/components/ok-b.tsx': `${importing('../api')}${importing('../../../components/ui/button').replace(/x/g, 'y')}`,
        'web/src/features/tasks/components/deep/ok-c.ts': `${importing('../../api')}${importing('../task-card').replace(/x/g, 'y')}${importing('../../../../lib/queries/users').replace(/x/g, 'z')}`,
        'web/src/features/tasks/ok-d.ts': importing('@cc/contract'),
        'web/src/app/routes/ok-e.tsx': `${importing('../../features/tasks/api')}${importing('../../features/conversations/api').replace(/x/g, 'y')}`,
      }),
    ).toEqual([]);
  });

  it('covers every file under web/src/features (a deeper folder would escape the rule)', () => {
    const covered = new Set(
      config.overrides
        .flatMap((o) => o.includes)
        .filter((glob) => /^web\/src\/features(\/\*)+$/.test(glob))
        .map((glob) => glob.split('/').length - 3),
    );
    const featuresDir = join(root, 'web', 'src', 'features');
    const files = readdirSync(featuresDir, { recursive: true, withFileTypes: true })
      .filter((d) => d.isFile() && /\.tsx?$/.test(d.name))
      .map((d) => relative(featuresDir, join(d.parentPath, d.name)).split(sep));
    expect(files.length).toBeGreaterThan(50);
    const uncovered = files.filter((parts) => !covered.has(parts.length)).map((parts) => parts.join('/'));
    expect(uncovered).toEqual([]);
  });
});
