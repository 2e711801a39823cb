import type { Worker } from 'node:worker_threads';
import type { Database as SQLiteDatabase } from 'better-sqlite3';
import { startSqliteWorker, stopSqliteWorker } from './sqlite-worker.ts';

/** Commits between two checkpoint rounds: about SQLite's own cadence (1,000 pages) for a task write. */
const COMMITS_PER_ROUND = 64;
/** WAL frames (pages) from which a caught-up round also restarts the WAL, so it stops growing. */
const RESTART_FRAMES = 4096;
/** A round now and then even without commits, for the last commits of a burst. */
const IDLE_ROUND_MS = 1000;

/**
 * The worker's code (CommonJS, run with `eval`: the server is bundled into one file, so the worker
 * has no file of its own). Its own connection checkpoints the WAL; `busy_timeout = 0` so it never
 * waits for the main thread's locks: a round that finds them taken is left to the next one.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
let db;
try {
  db = new Database(workerData.file, { fileMustExist: true });
} catch (err) {
  // A plain Error crosses to the main thread with its message (SqliteError does not).
  throw new Error('cannot open ' + workerData.file + ': ' + err.message);
}
db.pragma('busy_timeout = 0');
db.pragma('synchronous = NORMAL');
db.pragma('wal_autocheckpoint = 0');
// After 'caught-up', no round until the main thread has made its catch-up ('done'): a round under
// way would hold the checkpoint lock and make that catch-up fail.
let waiting = false;
let told = -1;
const round = () => {
  if (waiting) return;
  try {
    const [r] = db.pragma('wal_checkpoint(PASSIVE)');
    if (r.log >= workerData.restartFrames && r.checkpointed === r.log && r.log !== told) {
      told = r.log;
      waiting = true;
      parentPort.postMessage('caught-up');
    }
  } catch {
    // SQLITE_BUSY (another checkpoint is under way): the next round tries again.
  }
};
const idle = setInterval(round, workerData.idleMs);
parentPort.on('message', (m) => {
  if (m === 'done') waiting = false;
  else if (m === 'round') round();
  else if (m === 'close') {
    clearInterval(idle);
    db.close();
    parentPort.close();
  }
});
`;

/**
 * Checkpoints the SQLite WAL on a thread of its own (issue #18, durable writes).
 *
 * SQLite's automatic checkpoint runs inside the COMMIT that crosses 1,000 WAL pages, on the thread
 * that commits: with `synchronous=NORMAL` it copies the pages into the database file and fsyncs the
 * WAL and the database file, which held the event loop for 10–15 ms every ~64 task writes on the
 * 100k-task data set (about 150 µs per write, a third of a write's cost). The main connection turns
 * it off (`wal_autocheckpoint = 0`) and this class has a worker thread do it, with a connection of
 * its own, after every {@link COMMITS_PER_ROUND} commits: PASSIVE rounds never take the write lock,
 * so the event loop does not wait for them.
 *
 * A WAL starts over only when a write begins with every frame copied, which rounds running beside
 * the writes never achieve under steady load. So once it is {@link RESTART_FRAMES} long and a round
 * has caught up, the main connection copies the few frames written since itself (a PASSIVE
 * checkpoint of ~100 pages, about a millisecond), and its next write starts the WAL over. (A RESTART
 * checkpoint from the worker did the same but held the write lock for 12–14 ms, which the main
 * thread spent in SQLite's busy handler.)
 *
 * Durability is SQLite's: a checkpoint under NORMAL syncs the WAL before it copies and the database
 * file after, whichever connection runs it. The worker starts with the first round (a server that
 * writes little never starts it) and stops before the main connection closes. Should it fail, the
 * main connection checkpoints by itself again.
 */
export class WalCheckpointer {
  private commits = 0;
  private worker: Worker | null = null;
  private failed = false;
  /** Rounds asked of the worker, and catch-ups the main connection made (tests read them). */
  rounds = 0;
  catchUps = 0;
  private catchUpDue = false;

  constructor(
    private readonly main: SQLiteDatabase,
    /** Smaller figures for tests. */
    private readonly tuning = { commitsPerRound: COMMITS_PER_ROUND, restartFrames: RESTART_FRAMES },
  ) {
    main.pragma('wal_autocheckpoint = 0');
  }

  /** A commit happened on the main connection. */
  committed(): void {
    if (this.failed || ++this.commits % this.tuning.commitsPerRound !== 0) return;
    this.rounds++;
    this.worker ??= this.start();
    this.worker.postMessage('round');
  }

  /** Stops the worker (its connection closes first, so the main connection is the last to close). */
  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    if (worker) await stopSqliteWorker(worker);
  }

  /** The shared write transaction committed (CommitGroup): a catch-up that found it open runs now. */
  groupCommitted(): void {
    if (!this.catchUpDue) return;
    this.catchUpDue = false;
    this.catchUp();
  }

  /** The worker copied every frame the WAL had: copy the few written since, so it can start over. */
  private catchUp(): void {
    if (!this.main.open) return;
    if (this.main.inTransaction) {
      // Under steady writes the shared transaction is open most of the time: after its next COMMIT.
      this.catchUpDue = true;
      return;
    }
    const busyTimeout = this.main.pragma('busy_timeout', { simple: true });
    this.main.pragma('busy_timeout = 0');
    try {
      this.main.pragma('wal_checkpoint(PASSIVE)');
      this.catchUps++;
    } catch {
      // Busy (a round of the worker's is under way): the next caught-up round asks again.
    } finally {
      this.main.pragma(`busy_timeout = ${busyTimeout}`);
    }
  }

  private start(): Worker {
    const worker = startSqliteWorker(WORKER_SOURCE, this.main.name, {
      restartFrames: this.tuning.restartFrames,
      idleMs: IDLE_ROUND_MS,
    });
    worker.on('message', () => {
      this.catchUp();
      worker.postMessage('done');
    });
    worker.on('error', (err) => {
      this.failed = true;
      this.worker = null;
      process.emitWarning(`SQLite checkpoint worker failed (${err.message}); checkpoints run inline again`);
      if (this.main.open) this.main.pragma('wal_autocheckpoint = 1000');
    });
    return worker;
  }
}
