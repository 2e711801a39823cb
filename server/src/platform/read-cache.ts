import type { TableClock } from '../db/table-clock.ts';

interface Entry<V> {
  stamp: number;
  tables: readonly string[];
  value: V;
  size: number;
}

/**
 * Values read from the database, each kept with the stamp taken before it was read and the tables it
 * was read from, and used only while none of those tables changed since (see TableClock). Least
 * recently used entries go first once the byte budget is spent; a stale entry is dropped when found.
 */
export class ReadCache<V> {
  private readonly entries = new Map<string, Entry<V>>();
  private bytes = 0;
  /** Lookups answered from memory (tests read it). */
  hits = 0;

  constructor(
    private readonly changes: TableClock,
    private readonly maxBytes: number,
  ) {}

  /** The time to read at: a value read after this may be stored with it. */
  stamp(): number {
    return this.changes.stamp();
  }

  get(key: string): V | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    this.entries.delete(key);
    if (!this.changes.unchangedSince(e.stamp, e.tables)) {
      this.bytes -= e.size;
      return undefined;
    }
    this.entries.set(key, e);
    this.hits++;
    return e.value;
  }

  /** Stores a value read at `stamp` from `tables` (about `size` bytes), unless it is already stale. */
  set(key: string, stamp: number, tables: readonly string[], value: V, size: number): void {
    if (size > this.maxBytes / 8 || !this.changes.unchangedSince(stamp, tables)) return;
    const old = this.entries.get(key);
    if (old) {
      this.entries.delete(key);
      this.bytes -= old.size;
    }
    this.entries.set(key, { stamp, tables, value, size });
    this.bytes += size;
    for (const [k, e] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(k);
      this.bytes -= e.size;
    }
  }
}

/** `read()` through `cache` (absent: no caching); undefined results are not kept. */
export async function readThrough<V>(
  cache: ReadCache<V> | null,
  key: string,
  tables: readonly string[],
  size: number,
  read: () => Promise<V | undefined>,
): Promise<V | undefined> {
  if (!cache) return read();
  const stamp = cache.stamp();
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  const value = await read();
  if (value !== undefined) cache.set(key, stamp, tables, value, size);
  return value;
}
