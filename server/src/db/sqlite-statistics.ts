import type SQLite from 'better-sqlite3';

/** How often the server looks for STAT4 samples an ANALYZE wrote while it runs. */
const CHECK_EVERY_MS = 60_000;

/**
 * Empties sqlite_stat4 (when it has rows) and has the planner reload its statistics; true when it did.
 *
 * better-sqlite3 builds SQLite with SQLITE_ENABLE_STAT4, so ANALYZE (an operator's, or `PRAGMA
 * optimize`) also writes samples of index keys. With samples the bound value of a parameter compared to
 * a sampled index column steers the plan, and SQLite recompiles such a statement every time it is bound
 * again: every query by user, organization or id, each run (on the bench's data set a list page spent a
 * sixth of its time recompiling). The app's queries read their indexes in order and need no samples;
 * sqlite_stat1 (row counts per key), which ANALYZE also writes, is kept.
 * See docs/decisions/ 2026-11-28 "No STAT4 samples on SQLite".
 */
export function dropStat4Samples(sqlite: SQLite.Database): boolean {
  if (sqlite.inTransaction) return false;
  const table = sqlite
    .prepare("select 1 from sqlite_schema where type = 'table' and name = 'sqlite_stat4'")
    .get();
  if (!table || !sqlite.prepare('select 1 from sqlite_stat4 limit 1').get()) return false;
  sqlite.exec('delete from sqlite_stat4; analyze sqlite_schema');
  return true;
}

/** Drops the samples now and whenever a later ANALYZE writes them again (checked every minute). */
export function keepWithoutStat4Samples(sqlite: SQLite.Database): () => void {
  const check = () => {
    try {
      if (sqlite.open) dropStat4Samples(sqlite);
    } catch (err) {
      // Busy or read-only: the samples cost speed, not correctness; try again at the next check.
      process.emitWarning(`SQLite statistics: ${(err as Error).message}`);
    }
  };
  check();
  const timer = setInterval(check, CHECK_EVERY_MS);
  timer.unref();
  return () => clearInterval(timer);
}
