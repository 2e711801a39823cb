/**
 * Requests awaiting a reply, by their number: a fixed array of slots, each cleared as its reply
 * arrives (docs/decisions/ 2026-11-28 "Request data dies young").
 *
 * Not a Map. A long-lived Map whose entries come and go thousands of times a second is rebuilt again
 * and again, and once its table is in the old generation V8 builds each new table there too; a
 * replaced table still points at the entries it held, and, dead but not yet collected, it keeps them
 * alive through every young collection until the next full one. For the SQLite read worker that
 * kept every awaited page (its promise, rows and text) alive long enough to be promoted: ~130 MB/s
 * on a tasks-miss load and a fifth of the event loop in scavenges, against ~5–10 MB/s with slots.
 *
 * Numbers must be given out in increasing order and at most `capacity` be outstanding at once for a
 * slot to be free; `free(n)` says whether it is.
 */
export class InFlight<T> {
  private readonly slots: (T | undefined)[];
  private readonly numbers: number[];
  size = 0;

  constructor(capacity: number) {
    this.slots = new Array(capacity).fill(undefined);
    this.numbers = new Array(capacity).fill(-1);
  }

  /** Whether `n` can be added now (its slot is not held by an older number still awaited). */
  free(n: number): boolean {
    return this.slots[n % this.slots.length] === undefined;
  }

  add(n: number, value: T): void {
    const i = n % this.slots.length;
    if (this.slots[i] !== undefined) throw new Error(`slot of ${n} is held by ${this.numbers[i]}`);
    this.slots[i] = value;
    this.numbers[i] = n;
    this.size++;
  }

  /** The value awaiting `n`, removed; undefined if `n` is not awaited. */
  take(n: number): T | undefined {
    const i = n % this.slots.length;
    if (this.numbers[i] !== n) return undefined;
    const value = this.slots[i];
    this.slots[i] = undefined;
    this.numbers[i] = -1;
    this.size--;
    return value;
  }

  /** Every awaited value, removed (oldest slot first). */
  takeAll(): T[] {
    const values = this.slots.filter((v): v is T => v !== undefined);
    this.slots.fill(undefined);
    this.numbers.fill(-1);
    this.size = 0;
    return values;
  }
}
