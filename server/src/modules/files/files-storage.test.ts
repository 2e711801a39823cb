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

  // Found by CI: the error came while the store was still making its folder, before pipeline()
  // listened, and surfaced as an uncaught exception (in the server: a process exit).
  it('a stream that already failed when staging starts: a rejection, not an uncaught error', async () => {
    const uncaught: unknown[] = [];
    const onUncaught = (err: unknown) => uncaught.push(err);
    process.on('uncaughtException', onUncaught);
    try {
      for (let i = 0; i < 5; i++) {
        const store = new FileStore(path.join(dir, `fresh-${i}`));
        const source = new PassThrough();
        source.destroy(new Error('Unexpected end of form'));
        await expect(store.stage(source, () => false)).rejects.toThrow('Unexpected end of form');
      }
      await new Promise((r) => setTimeout(r, 50));
    } finally {
      process.off('uncaughtException', onUncaught);
    }
    expect(uncaught).toEqual([]);
  });
});
