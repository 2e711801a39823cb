import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream, type ReadStream } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { SNIFF_BYTES } from './files.sniff.ts';

/**
 * The bytes of uploaded files on disk. Every file lives directly under FILES_DIR under a generated
 * UUID: nothing the client sends is ever part of a path. Uploads are written to `.tmp/` first (same
 * file system) and renamed into place, so a crash or a rejected upload never leaves a half file
 * under a name a row points to.
 */
const STORAGE_NAME = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Stored names checked against the database per query by {@link FileStore.sweep}. */
const SWEEP_BATCH = 500;

export interface StagedUpload {
  tempPath: string;
  size: number;
  sha256: string;
  /** The first bytes, for type detection. */
  head: Buffer;
  /** The stream was cut at the size limit. */
  truncated: boolean;
}

export class FileStore {
  readonly dir: string;
  private readonly tmpDir: string;
  private ready: Promise<void> | null = null;

  constructor(dir: string) {
    this.dir = path.resolve(dir);
    this.tmpDir = path.join(this.dir, '.tmp');
  }

  private ensure(): Promise<void> {
    this.ready ??= mkdir(this.tmpDir, { recursive: true, mode: 0o700 }).then(() => undefined);
    return this.ready;
  }

  /** The path of a stored file; refuses anything but a generated name. */
  pathOf(storageName: string): string {
    if (!STORAGE_NAME.test(storageName)) throw new Error('invalid storage name');
    return path.join(this.dir, storageName);
  }

  newStorageName(): string {
    return randomUUID();
  }

  /**
   * Streams an upload to a temporary file, hashing it and keeping its first bytes. `isTruncated` is
   * asked at the end (the multipart parser marks a stream cut at the size limit).
   */
  async stage(stream: Readable, isTruncated: () => boolean): Promise<StagedUpload> {
    // The parser may fail the stream (a body cut short) while the folder is still being made, before
    // pipeline() listens: an 'error' with no listener would end the process. pipeline() still sees it
    // (the stream is errored) and rejects with it below.
    stream.on('error', () => {});
    await this.ensure();
    const tempPath = path.join(this.tmpDir, `${randomUUID()}.part`);
    const hash = createHash('sha256');
    const headChunks: Buffer[] = [];
    let headLength = 0;
    let size = 0;
    const tap = new Transform({
      transform(chunk: Buffer, _enc, done) {
        hash.update(chunk);
        size += chunk.length;
        if (headLength < SNIFF_BYTES) {
          const part = chunk.subarray(0, SNIFF_BYTES - headLength);
          headChunks.push(part);
          headLength += part.length;
        }
        done(null, chunk);
      },
    });
    const out = createWriteStream(tempPath, { flags: 'wx', mode: 0o600 });
    try {
      await pipeline(stream, tap, out);
    } catch (err) {
      // A body cut short can fail the pipeline while the file is still being opened: removed before
      // the open completes, the .part would be created afterwards and left behind.
      if (!out.closed) await new Promise<void>((resolve) => out.once('close', () => resolve()));
      await rm(tempPath, { force: true });
      throw err;
    }
    return {
      tempPath,
      size,
      sha256: hash.digest('hex'),
      head: Buffer.concat(headChunks),
      truncated: isTruncated(),
    };
  }

  /** Reads up to `max` bytes from the start of a staged file (text extraction). */
  async readStart(filePath: string, max: number): Promise<Buffer> {
    const fh = await open(filePath, 'r');
    try {
      const buf = Buffer.alloc(max);
      const { bytesRead } = await fh.read(buf, 0, max, 0);
      return buf.subarray(0, bytesRead);
    } finally {
      await fh.close();
    }
  }

  /** Moves a staged file to its final name. */
  async commit(tempPath: string, storageName: string): Promise<void> {
    await rename(tempPath, this.pathOf(storageName));
  }

  async discard(tempPath: string): Promise<void> {
    await rm(tempPath, { force: true });
  }

  async remove(storageName: string): Promise<void> {
    await rm(this.pathOf(storageName), { force: true });
  }

  /**
   * Removes left-overs of a stopped server: `.part` files of uploads cut mid-way (a crash, a
   * shutdown, a client gone at the size limit) and stored files no row names (`isKnown` answers
   * which of a batch of names have a row). Only files untouched since `olderThan` (ms since the
   * epoch) go, so an upload another instance is writing or moving into place right now is left alone.
   */
  async sweep(
    olderThan: number,
    isKnown: (names: string[]) => Promise<Set<string>>,
  ): Promise<{ parts: number; orphans: number }> {
    const stale = async (file: string) => {
      const st = await stat(file).catch(() => null);
      return st?.isFile() === true && st.mtimeMs < olderThan;
    };
    let parts = 0;
    const temps = await readdir(this.tmpDir).catch(() => [] as string[]);
    for (const name of temps) {
      const file = path.join(this.tmpDir, name);
      if (name.endsWith('.part') && (await stale(file))) {
        await rm(file, { force: true });
        parts++;
      }
    }
    let orphans = 0;
    const stored = (await readdir(this.dir).catch(() => [] as string[])).filter((n) => STORAGE_NAME.test(n));
    for (let i = 0; i < stored.length; i += SWEEP_BATCH) {
      const batch = stored.slice(i, i + SWEEP_BATCH);
      const known = await isKnown(batch);
      for (const name of batch) {
        if (known.has(name) || !(await stale(this.pathOf(name)))) continue;
        await rm(this.pathOf(name), { force: true });
        orphans++;
      }
    }
    return { parts, orphans };
  }

  open(storageName: string): ReadStream {
    return createReadStream(this.pathOf(storageName));
  }
}

const stores = new Map<string, FileStore>();

/** One store per directory (the app context carries the configuration, not the store). */
export function fileStore(dir: string): FileStore {
  let s = stores.get(dir);
  if (!s) {
    s = new FileStore(dir);
    stores.set(dir, s);
  }
  return s;
}
