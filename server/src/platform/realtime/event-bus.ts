/**
 * The event bus carries small "something happened" notes between the code that writes a record and
 * the streams that follow it. Rule: write the row first, then publish; a stream that receives a note
 * reads the rows from the database, so a lost note never loses data and payloads stay tiny.
 */
export type BusPayload = Record<string, unknown>;
export type BusListener = (payload: BusPayload) => void;

export interface EventBus {
  /**
   * Delivers the payload to every subscriber of the channel (on every server instance), in the order
   * of the calls: a publisher need not wait for one note before publishing the next.
   */
  publish(channel: string, payload: BusPayload): Promise<void>;
  /** Returns the unsubscribe function; call it when the stream ends. */
  subscribe(channel: string, listener: BusListener): () => void;
  /** Listeners currently registered on this instance (leak checks, bench). */
  listenerCount(): number;
  close(): Promise<void>;
}

/** Fan-out inside one process: the channel map is shared with the PostgreSQL adapter. */
export class LocalFanout {
  private readonly channels = new Map<string, Set<BusListener>>();
  private count = 0;

  subscribe(channel: string, listener: BusListener): () => void {
    let set = this.channels.get(channel);
    if (!set) {
      set = new Set();
      this.channels.set(channel, set);
    }
    // Wrap so the same function subscribed twice is two subscriptions.
    const entry: BusListener = (p) => listener(p);
    set.add(entry);
    this.count++;
    let active = true;
    return () => {
      if (!active) return;
      active = false;
      this.count--;
      set.delete(entry);
      if (set.size === 0) this.channels.delete(channel);
    };
  }

  deliver(channel: string, payload: BusPayload): void {
    const set = this.channels.get(channel);
    if (!set) return;
    for (const listener of [...set]) {
      try {
        listener(payload);
      } catch {
        // A failing listener must not stop the others; streams handle their own errors.
      }
    }
  }

  listenerCount(): number {
    return this.count;
  }

  clear(): void {
    this.channels.clear();
    this.count = 0;
  }
}

/** The embedded (SQLite) adapter: one process, so delivery is a function call. */
export class InProcessEventBus implements EventBus {
  private readonly fanout = new LocalFanout();

  async publish(channel: string, payload: BusPayload): Promise<void> {
    // Deliver on a later tick, like a network round trip, so publishers never re-enter listeners.
    queueMicrotask(() => this.fanout.deliver(channel, payload));
  }

  subscribe(channel: string, listener: BusListener): () => void {
    return this.fanout.subscribe(channel, listener);
  }

  listenerCount(): number {
    return this.fanout.listenerCount();
  }

  async close(): Promise<void> {
    this.fanout.clear();
  }
}
