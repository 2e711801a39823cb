import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { build } from 'rolldown';
import { describe, expect, it } from 'vitest';
import { annotatePure } from './pure-contract.plugin';

const CONTRACT = path.resolve(__dirname, '../../contract/src');

describe('pure contract schemas in the web build', () => {
  it('annotates each schema chain, never z.config, a string or a regular expression', () => {
    const src = [
      "z.config({ customError: () => 'Field required' });",
      "export const A = z\n  .string()\n  .max(ZLimit.max(3) ? 1 : 2, 'Zone. name');",
      'const B = ZOptionalText(200).optional();',
      'export const C = /^[a-z.]+$/;',
      "const D = '— a dash…'; export const E = z.string();",
    ].join('\n');
    expect(annotatePure(src)).toBe(
      [
        "z.config({ customError: () => 'Field required' });",
        "export const A = /* @__PURE__ */ z\n  .string()\n  .max(/* @__PURE__ */ ZLimit.max(3) ? 1 : 2, 'Zone. name');",
        'const B = /* @__PURE__ */ ZOptionalText(200).optional();',
        'export const C = /^[a-z.]+$/;',
        "const D = '— a dash…'; export const E = /* @__PURE__ */ z.string();",
      ].join('\n'),
    );
  });

  it('lets a bundle drop the schemas it never reads and keep the app-wide error messages', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'cc-pure-'));
    try {
      const entry = path.join(dir, 'entry.ts');
      // A page that reads one constant of the advice contract, as the dashboard does.
      writeFileSync(
        entry,
        `import { ADVICE_GENERATION_POLL_MS } from '${CONTRACT}/advice.ts';\nconsole.log(ADVICE_GENERATION_POLL_MS);\n`,
      );
      const bundle = async (annotate: boolean) => {
        const out = await build({
          input: entry,
          cwd: path.resolve(__dirname, '..'),
          write: false,
          logLevel: 'silent',
          plugins: [
            {
              name: 'annotate',
              transform: (code, id) => (annotate && id.startsWith(CONTRACT) ? annotatePure(code) : null),
            },
          ],
        });
        return out.output[0].code;
      };
      const plain = await bundle(false);
      const annotated = await bundle(true);
      // Without the annotations the advice schemas are built on load (their messages are in the code).
      expect(plain).toContain('ADVICE_CONTENT_REQUIRED');
      expect(annotated).not.toMatch(/^\s*(string|object|strictObject|ZOptionalText)\(/m);
      expect(annotated).not.toContain('"Content required"');
      // `z.config` sets "Field required" for every schema: it runs for its effect and must stay.
      expect(annotated).toContain('Field required');
      expect(annotated.length).toBeLessThan(plain.length);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
