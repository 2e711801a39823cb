import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { BusListener, BusPayload, EventBus } from './event-bus.ts';
import { LocalFanout } from './event-bus.ts';

/** One PostgreSQL channel carries every bus channel; the JSON names the logical channel. */
const PG_CHANNEL = 'cc_events';
/** NOTIFY payloads are limited to 8000 bytes; ours are ids and short deltas. */
const MAX_PAYLOAD = 7900;
/** One note, so that it fits in a payload with the batch's envelope. */
const MAX_NOTE = MAX_PAYLOAD - 100;

interface PendingNote {
  text: string;
  bytes: number;
  resolve: () => void;
  reject: (err: unknown) => void;
}

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
 *
 * Notes published while a NOTIFY is under way go together in the next one (as many as its payload
 * holds, in order): fifty streaming replies publish a note per token, and one round trip per note
 * kept a pool connection busy for each, which the replies' own writes then waited for.
 */
export class PostgresEventBus implements EventBus {
  private readonly fanout = new LocalFanout();
  private listener: pg.Client | null = null;
  private closed = false;
  private ready: Promise<void>;
  private retryDelay = 250;
  /** Notes waiting for the next NOTIFY, in publish order. */
  private pending: PendingNote[] = [];
  private sending = false;
  /** Names this instance in its NOTIFY payloads, so its LISTEN skips what it delivered itself. */
  private readonly origin = randomUUID();
  /** How this instance's NOTIFY payloads begin: its own notes come back on LISTEN and are skipped unparsed. */
  private readonly head = `{"o":${JSON.stringify(this.origin)},"n":[`;

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
          if (n.channel !== PG_CHANNEL || !n.payload || n.payload.startsWith(this.head)) return;
          try {
            const { o, n: notes } = JSON.parse(n.payload) as {
              o?: string;
              n?: { c: string; p: BusPayload }[];
            };
            if (o === this.origin || !Array.isArray(notes)) return;
            for (const { c, p } of notes) this.fanout.deliver(c, p);
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
    const text = JSON.stringify({ c: channel, p: payload });
    const bytes = Buffer.byteLength(text);
    if (bytes > MAX_NOTE) {
      throw new Error(`event bus payload on ${channel} is too large; publish ids, not records`);
    }
    // A later tick, like the in-process bus: publishers never re-enter listeners.
    queueMicrotask(() => this.fanout.deliver(channel, payload));
    return new Promise<void>((resolve, reject) => {
      this.pending.push({ text, bytes, resolve, reject });
      if (!this.sending) void this.sendPending();
    });
  }

  /** One NOTIFY at a time, in call order, so other instances get the notes in the order published. */
  private async sendPending(): Promise<void> {
    this.sending = true;
    const head = this.head;
    while (this.pending.length > 0) {
      let size = Buffer.byteLength(head) + 2;
      let count = 0;
      while (count < this.pending.length && size + this.pending[count].bytes + 1 <= MAX_PAYLOAD) {
        size += this.pending[count].bytes + 1;
        count++;
      }
      const batch = this.pending.splice(0, Math.max(count, 1));
      try {
        await this.notify(PG_CHANNEL, `${head}${batch.map((b) => b.text).join(',')}]}`);
        for (const b of batch) b.resolve();
      } catch (err) {
        for (const b of batch) b.reject(err);
      }
    }
    this.sending = false;
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
