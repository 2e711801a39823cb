import fs from 'node:fs';
import path from 'node:path';

const noop = () => {};
const done = Promise.resolve();

/** What syncs the write-ahead log; tests wrap the real one to watch it. */
export type SyncFn = (fd: number, cb: (err: NodeJS.ErrnoException | null) => void) => void;

/**
 * Durable SQLite commits without blocking the event loop: group commit.
 *
 * With `synchronous=FULL`, better-sqlite3 calls fsync inside every COMMIT on the JavaScript thread,
 * so each write blocked every request for a disk flush, and concurrent writes paid one flush each.
 * The database runs with `synchronous=NORMAL` instead, where a WAL commit only write()s its frames,
 * and this class makes them durable: `fdatasync` of the WAL file, on libuv's thread pool, covering
 * every commit made before it started. The tracking dialect awaits {@link sync} after each write
 * (once the connection is free for other queries), so code after `await write` — the HTTP answer,
 * the bus note — runs only once the write is on disk; the writes that arrive while one flush runs
 * share the next one. Reads that see a write before its flush has finished are held back too: the
 * app awaits {@link settled} before sending any response or stream event while a flush is due. So no
 * acknowledged or shown write can be lost to a crash, as with FULL (docs/decisions/, "Group commit").
 *
 * fsync/fdatasync act on the file, not the descriptor, so a descriptor of our own flushes the frames
 * SQLite wrote. The WAL file lives as long as the database is open (SQLite deletes it only when the
 * last connection closes); a checkpoint resets it in place and syncs itself under NORMAL.
 */
export class WalDurability {
  private fd: number | null = null;
  /** Commits seen so far, and how many of them are known to be on disk. */
  private committedCount = 0;
  private durableCount = 0;
  private running: Promise<void> | null = null;
  private runningTarget = 0;
  private next: Promise<void> | null = null;
  /** Flushes started (tests and the bench read it). */
  flushes = 0;
  /**
   * Runs before each flush's fdatasync: commits the writes that share a transaction (see
   * {@link CommitGroup}); a failure there fails the flush.
   */
  beforeFlush: (() => Promise<void>) | null = null;
  /** The commit count when the shared transaction last committed (see {@link lost}). */
  private groupedThrough = 0;
  /** Writes a failed shared transaction took with it, newest last: (after, through]. */
  private readonly losses: { after: number; through: number; err: unknown }[] = [];

  constructor(
    private readonly walPath: string,
    private readonly syncFn: SyncFn = fs.fdatasync,
    /** Told of every commit (the WAL checkpointer counts them). */
    private readonly afterCommit: () => void = noop,
  ) {}

  /**
   * A write became visible (an autocommit write, the COMMIT of a transaction that wrote, or either
   * inside the shared transaction); returns its number for {@link sync}.
   */
  committed(): number {
    this.committedCount++;
    this.afterCommit();
    return this.committedCount;
  }

  /** The shared transaction committed: every write counted so far is in the database. */
  groupCommitted(): void {
    this.groupedThrough = this.committedCount;
  }

  /**
   * The shared transaction was rolled back (a COMMIT or a statement in it failed with disk full or an
   * I/O error): the writes counted since it last committed are gone, and their writers are told so.
   */
  lost(err: unknown): void {
    if (this.committedCount > this.groupedThrough)
      this.losses.push({ after: this.groupedThrough, through: this.committedCount, err });
    if (this.losses.length > 32) this.losses.shift();
    this.groupedThrough = this.committedCount;
  }

  /** True when every commit seen is on disk. */
  get clean(): boolean {
    return this.durableCount >= this.committedCount;
  }

  /**
   * Resolves once every commit made before the call is on disk; with `write` (the number
   * {@link committed} gave), rejects if that write was lost with its shared transaction.
   */
  sync(write?: number): Promise<void> {
    if (write === undefined) return this.syncAll();
    const check = () => {
      const loss = this.losses.find((l) => write > l.after && write <= l.through);
      if (loss) throw loss.err;
    };
    check();
    return this.syncAll().then(check);
  }

  private syncAll(): Promise<void> {
    const need = this.committedCount;
    if (this.durableCount >= need) return done;
    if (this.running && this.runningTarget >= need) return this.running;
    if (!this.running) return this.flush();
    // The flush under way may have started before this commit: the next one covers it.
    this.next ??= this.running.then(noop, noop).then(() => {
      this.next = null;
      return this.syncAll();
    });
    return this.next;
  }

  /** Like {@link sync}, for readers: free when nothing is waiting to be flushed. */
  settled(): Promise<void> {
    return this.clean ? done : this.syncAll();
  }

  /** Closes the descriptor once pending flushes are done (the database closes after this). */
  async close(): Promise<void> {
    await this.syncAll().catch(noop);
    if (this.fd !== null) fs.closeSync(this.fd);
    this.fd = null;
  }

  private flush(): Promise<void> {
    const target = this.committedCount;
    this.runningTarget = target;
    this.flushes++;
    const fsync = () =>
      new Promise<void>((resolve, reject) => {
        let fd: number;
        try {
          fd = this.descriptor();
        } catch (err) {
          reject(err);
          return;
        }
        this.syncFn(fd, (err) => {
          if (err) return reject(err);
          if (target > this.durableCount) this.durableCount = target;
          resolve();
        });
      });
    // The shared transaction commits first (on the event loop, once the connection is free), so the
    // flush covers it; writes made meanwhile join the next transaction and the next flush.
    const running = this.beforeFlush ? this.beforeFlush().then(fsync) : fsync();
    this.running = running;
    const clear = () => {
      if (this.running === running) this.running = null;
    };
    running.then(clear, clear);
    return running;
  }

  private descriptor(): number {
    if (this.fd !== null) return this.fd;
    // The WAL exists once a write has committed. Its directory entry is made durable once, as SQLite
    // does not sync the directory when it creates the file.
    this.fd = fs.openSync(this.walPath, 'r+');
    try {
      const dir = fs.openSync(path.dirname(this.walPath), 'r');
      try {
        fs.fsyncSync(dir);
      } finally {
        fs.closeSync(dir);
      }
    } catch {
      // Platforms that cannot open or sync a directory (Windows) keep the entry through the file.
    }
    return this.fd;
  }
}
