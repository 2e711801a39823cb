import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { BusListener, BusPayload, EventBus } from './event-bus.ts';
import { LocalFanout } from './event-bus.ts';

/** One PostgreSQL channel carries every bus channel; the JSON names the logical channel. */
const PG_CHANNEL = 'cc_events';
/** NOTIFY payloads are limited to 8000 bytes; ours are ids and short deltas. */
const MAX_PAYLOAD = 7900;

/**
 * Several server instances on one database: publish is `pg_notify`, and each instance holds one
 * dedicated LISTEN connection whose notifications are fanned out to its local subscribers. The
 * connection reconnects with backoff; a stream that missed notes while it was down catches up on its
 * next note because it always reads rows after its own cursor.
 *
 * This instance's own subscribers get a note at once, in publish order, as with the in-process bus:
 * waiting for the NOTIFY round trip (a pool query per note, and one per token delta of every reply)
 * queued 50 replies' tokens behind each other. The NOTIFY carries the instance's origin id, and the
 * LISTEN side skips its own notes, so each subscriber still gets every note once.
 */
export class PostgresEventBus implements EventBus {
  private readonly fanout = new LocalFanout();
  private listener: pg.Client | null = null;
  private closed = false;
  private ready: Promise<void>;
  private retryDelay = 250;
  /** The NOTIFY sent last (or under way): the next one follows it. */
  private sending: Promise<void> = Promise.resolve();
  /** Names this instance in its NOTIFY payloads, so its LISTEN skips what it delivered itself. */
  private readonly origin = randomUUID();

  constructor(
    private readonly url: string,
    private readonly notify: (channel: string, text: string) => Promise<void>,
    private readonly log: (msg: string) => void = () => {},
  ) {
    this.ready = this.connect();
  }

  private async connect(): Promise<void> {
    while (!this.closed) {
      const client = new pg.Client({ connectionString: this.url });
      // Listeners before connect: the chunk that ends the handshake may also carry an error (a server
      // shutting down sends "terminating connection" right after ReadyForQuery), and pg emits it before
      // the awaited connect resumes; with no listener yet, that 'error' ended the process.
      client.on('error', () => this.reconnect(client));
      client.on('end', () => this.reconnect(client));
      try {
        await client.connect();
        client.on('notification', (n) => {
          if (n.channel !== PG_CHANNEL || !n.payload) return;
          try {
            const { c, p, o } = JSON.parse(n.payload) as { c: string; p: BusPayload; o?: string };
            if (o !== this.origin) this.fanout.deliver(c, p);
          } catch {
            // Not ours or malformed: ignore.
          }
        });
        await client.query(`LISTEN ${PG_CHANNEL}`);
        this.listener = client;
        this.retryDelay = 250;
        return;
      } catch (err) {
        await client.end().catch(() => {});
        this.log(`event bus: LISTEN connection failed (${String(err)}); retrying`);
        await new Promise((r) => setTimeout(r, this.retryDelay));
        this.retryDelay = Math.min(this.retryDelay * 2, 5000);
      }
    }
  }

  private reconnect(client: pg.Client): void {
    if (this.closed || this.listener !== client) return;
    this.listener = null;
    client.end().catch(() => {});
    this.ready = this.connect();
  }

  /** Resolves once the LISTEN connection is up (tests and start-up wait for it). */
  whenReady(): Promise<void> {
    return this.ready;
  }

  async publish(channel: string, payload: BusPayload): Promise<void> {
    const text = JSON.stringify({ c: channel, p: payload, o: this.origin });
    if (Buffer.byteLength(text) > MAX_PAYLOAD) {
      throw new Error(`event bus payload on ${channel} is too large; publish ids, not records`);
    }
    // A later tick, like the in-process bus: publishers never re-enter listeners.
    queueMicrotask(() => this.fanout.deliver(channel, payload));
    // One NOTIFY at a time, in call order, so other instances get the notes in the order published.
    const sent = this.sending.then(() => this.notify(PG_CHANNEL, text));
    this.sending = sent.catch(() => {});
    await sent;
  }

  subscribe(channel: string, listener: BusListener): () => void {
    return this.fanout.subscribe(channel, listener);
  }

  listenerCount(): number {
    return this.fanout.listenerCount();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.fanout.clear();
    const client = this.listener;
    this.listener = null;
    if (client) await client.end().catch(() => {});
  }
}
