import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { FileStore } from './files.storage.ts';

describe('FileStore.stage: an upload that fails leaves no .part behind', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'cc-stage-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('a stream that fails at once (a multipart body cut short) while the temporary file is still opening', async () => {
    const store = new FileStore(dir);
    for (let i = 0; i < 40; i++) {
      const source = new PassThrough();
      // The parser's error arrives before the write stream has opened its file.
      process.nextTick(() => source.destroy(new Error('Unexpected end of form')));
      await expect(store.stage(source, () => false)).rejects.toThrow('Unexpected end of form');
    }
    await new Promise((r) => setTimeout(r, 50));
    expect(readdirSync(path.join(dir, '.tmp'))).toEqual([]);
  });
});
