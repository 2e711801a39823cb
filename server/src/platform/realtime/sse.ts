import { Socket } from 'node:net';
import { ZEventCursor } from '@cc/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.ts';
import { AppError } from '../errors.ts';
import { limitHeaders } from '../limits/limit-state.ts';
import { limitMessages } from '../limits/limit-messages.ts';
import { callerKey, limitError } from '../limits/limits.ts';
import type { BusPayload } from './event-bus.ts';

export interface SseMessage {
  /** The cursor of a persisted event (sent as `id:` so the client resumes with Last-Event-ID). */
  id?: string;
  event?: string;
  data: unknown;
}

export interface SseStreamOptions {
  /** Bus channel whose notes mean "new rows" (or carry an ephemeral message). */
  channel: string;
  /** Persisted events strictly after the cursor (null: from the start), oldest first, at most `limit`. */
  loadAfter?: (cursor: string | null, limit: number) => Promise<SseMessage[]>;
  /** Where to start without Last-Event-ID (e.g. the current max to skip history); default null. */
  initialCursor?: () => Promise<string | null>;
  /** A message to send as is (token deltas), or null when the note only means "reload". */
  onEphemeral?: (payload: BusPayload) => SseMessage | null;
  /** After sending a terminal message the stream ends. */
  isTerminal?: (msg: SseMessage) => boolean;
  /** Rows per loadAfter call. */
  pageSize?: number;
  /**
   * Streams whose loadAfter returns the same messages for every viewer (a run's timeline) set the
   * same key: concurrent reads at one cursor become one query and one serialization, so an event
   * followed by 1,000 streams costs one read, not 1,000.
   */
  shareKey?: string;
  /**
   * With `shareKey`: which of the shared rows this stream's viewer may see (default all). The rows are
   * read once for everyone; a stream skips the ones it must not send (its cursor still moves past them).
   */
  keep?: (msg: SseMessage) => boolean;
  /**
   * The cursor a note vouches for. Publishers send a note only once its write is on disk (the group
   * commit's flush is awaited before the bus note), so rows up to that cursor go out without waiting
   * for a flush; a row past it (a later write the same read saw) still waits. Without it, any read
   * made while some other write's flush is due waits for that flush too.
   */
  durableCursor?: (payload: BusPayload) => string | null;
}

/**
 * One read of the rows after a cursor, shared by every stream with the same key and cursor. Streams that
 * were idle when the note came take the rows in one synchronous loop as soon as the read returns: the
 * first socket write does not wait for every follower's own promise chain, so a fan-out to 2,000 streams
 * is one read, then 2,000 writes in a row.
 */
interface SharedRead {
  rows: Promise<SseMessage[]>;
  takers: ((rows: SseMessage[] | null, err?: unknown) => void)[];
}

/** The reads in flight of the streams with one share key (and page size), by cursor. */
interface ShareGroup {
  reads: Map<string | null, SharedRead>;
  streams: number;
}

const shareGroupsByContext = new WeakMap<AppContext, Map<string, ShareGroup>>();

/** The group of a stream's share key, held until `release`. */
function joinShareGroup(ctx: AppContext, key: string): { group: ShareGroup; release: () => void } {
  let groups = shareGroupsByContext.get(ctx);
  if (!groups) {
    groups = new Map();
    shareGroupsByContext.set(ctx, groups);
  }
  const all = groups;
  let group = all.get(key);
  if (!group) {
    group = { reads: new Map(), streams: 0 };
    all.set(key, group);
  }
  const held = group;
  held.streams++;
  return {
    group: held,
    release: () => {
      if (--held.streams === 0 && all.get(key) === held) all.delete(key);
    },
  };
}

function sharedRead(group: ShareGroup, cursor: string | null, load: () => Promise<SseMessage[]>): SharedRead {
  const existing = group.reads.get(cursor);
  if (existing) return existing;
  const read: SharedRead = { rows: load(), takers: [] };
  group.reads.set(cursor, read);
  read.rows.then(
    (rows) => {
      group.reads.delete(cursor);
      for (const take of read.takers) take(rows); // each taker catches its own failure
    },
    (err: unknown) => {
      group.reads.delete(cursor);
      for (const take of read.takers) take(null, err);
    },
  );
  return read;
}

interface Frame {
  /** The event as SSE text. */
  text: string;
  /** The same as one HTTP/1.1 chunk (size line, text, CRLF), ready for the socket. */
  chunk: Buffer;
}
/**
 * Each message object is serialized and framed once however many streams send it: a comms message
 * to 2,000 streams is one JSON text and one buffer, and each stream's share is one socket write.
 */
const frames = new WeakMap<SseMessage, Frame>();

export const HEARTBEAT_MS = 15_000;

/**
 * The client's resume cursor: the `Last-Event-ID` header, else `?last_event_id=`. Every stream's
 * cursor is a sequence number compared with an integer column, so anything else is refused here
 * (422, before the stream opens): PostgreSQL would fail the replay query with it and end the stream.
 */
export function lastEventId(req: FastifyRequest): string | null {
  const header = req.headers['last-event-id'];
  if (typeof header === 'string' && header.trim()) return validCursor(header, ['headers', 'last-event-id']);
  const q = (req.query as Record<string, unknown> | undefined)?.last_event_id;
  return typeof q === 'string' && q.trim() ? validCursor(q, ['querystring', 'last_event_id']) : null;
}

function validCursor(raw: string, loc: string[]): string {
  const parsed = ZEventCursor.safeParse(raw);
  if (parsed.success) return parsed.data;
  throw new AppError(422, [{ loc, msg: 'Must be a sequence number', type: 'invalid_cursor' }]);
}

export function formatSse(msg: SseMessage): string {
  return frameOf(msg).text;
}

function frameOf(msg: SseMessage): Frame {
  const cached = frames.get(msg);
  if (cached !== undefined) return cached;
  let text = '';
  if (msg.id !== undefined) text += `id: ${msg.id}\n`;
  if (msg.event) text += `event: ${msg.event}\n`;
  const data = typeof msg.data === 'string' ? msg.data : JSON.stringify(msg.data);
  for (const line of data.split('\n')) text += `data: ${line}\n`;
  text += '\n';
  const body = Buffer.from(text);
  const chunk = Buffer.concat([Buffer.from(`${body.length.toString(16)}\r\n`), body, CRLF]);
  const frame = { text, chunk };
  frames.set(msg, frame);
  return frame;
}

const CRLF = Buffer.from('\r\n');

/**
 * Sends a frame: straight to the socket as a ready-made chunk once the response is a chunked HTTP/1.1
 * stream whose headers are out (the socket keeps the order of everything written), which spares the
 * response object its per-write framing, encoding and corking; through `res.write` otherwise (HTTP/1.0
 * clients, injected test requests).
 */
function sendFrame(res: FastifyReply['raw'], frame: Frame): void {
  const socket = res.socket;
  const direct = socket instanceof Socket && res.headersSent && res.chunkedEncoding === true;
  if (direct && !socket.destroyed) socket.write(frame.chunk);
  else res.write(frame.text);
}

/**
 * Serves one SSE stream: replays persisted events after the client's cursor, then follows the bus.
 * It subscribes before the first read, and every read starts at its own cursor, so nothing written
 * between replay and follow is lost and nothing is sent twice. Bus notes are handled one at a time in
 * arrival order. Resolves when the stream has ended (client gone, terminal event, drain, revoked).
 */
export async function openSseStream(
  req: FastifyRequest,
  reply: FastifyReply,
  ctx: AppContext,
  opts: SseStreamOptions,
): Promise<void> {
  const pageSize = opts.pageSize ?? 200;
  let cursor = lastEventId(req);
  if (cursor === null && opts.initialCursor) cursor = await opts.initialCursor();

  // A stream beyond the caller's limit is refused (429) before it opens; its slot is freed when it ends.
  const slot = ctx.limits.streams.acquire(callerKey(req));
  if (!slot.release) throw limitError(slot.state, limitMessages.streams(ctx.limits.streams.max));

  reply.hijack();
  const res = reply.raw;
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
    'x-content-type-options': 'nosniff',
    'x-request-id': String(req.id),
    ...limitHeaders(slot.state, false),
  });
  res.write('retry: 3000\n: connected\n\n');

  let closed = false;
  let finish: () => void = () => {};
  const done = new Promise<void>((resolve) => {
    finish = resolve;
  });

  const cleanups: (() => void)[] = [slot.release];
  const end = () => {
    if (closed) return;
    closed = true;
    for (const c of cleanups) c();
    if (!res.writableEnded) res.end();
    finish();
  };

  const write = (msg: SseMessage) => {
    if (closed) return;
    sendFrame(res, frameOf(msg));
    if (msg.id !== undefined) cursor = msg.id;
    if (opts.isTerminal?.(msg)) end();
  };

  // Several messages at once go to the socket as one write (one system call, one packet), not one
  // write each: a run's events often come in twos and threes, to each of its followers.
  const writeAll = (batch: SseMessage[]) => {
    const socket = res.socket;
    if (batch.length < 2 || !socket) {
      for (const m of batch) write(m);
      return;
    }
    socket.cork();
    try {
      for (const m of batch) write(m);
    } finally {
      socket.uncork();
    }
  };

  // Work for this stream runs one task at a time, in the order of the notes; `pending` counts the
  // tasks queued or running, so a note that finds the stream idle may act at once. While the stream
  // takes a shared read's rows (`taking`), a task queued meanwhile waits for `takeDone`.
  let chain: Promise<void> = Promise.resolve();
  let pending = 0;
  let taking = false;
  let takeDone: (() => void) | null = null;
  const failed = (err: unknown) => {
    req.log.warn({ err, channel: opts.channel }, 'SSE stream failed to load events');
    end();
  };
  const enqueue = (fn: () => Promise<void> | void) => {
    pending++;
    if (taking && takeDone === null) {
      chain = new Promise<void>((resolve) => {
        takeDone = resolve;
      });
    }
    chain = chain.then(async () => {
      try {
        if (!closed) await fn();
      } catch (err) {
        failed(err);
      } finally {
        pending--;
      }
    });
  };

  const load = opts.loadAfter as NonNullable<typeof opts.loadAfter>;
  const share = opts.shareKey ? joinShareGroup(ctx, `${opts.shareKey}\u0000${pageSize}`) : null;
  if (share) cleanups.push(share.release);
  const loadAfter = (at: string | null): Promise<SseMessage[]> =>
    share ? sharedRead(share.group, at, () => load(at, pageSize)).rows : load(at, pageSize);

  // Rows up to this cursor are known to be on disk (see durableCursor).
  let durableUpTo = Number.NEGATIVE_INFINITY;
  const mustWaitForFlush = (rows: SseMessage[]) => {
    if (rows.length === 0 || !ctx.durability || ctx.durability.clean) return false;
    const last = Number(rows[rows.length - 1].id);
    return !(last <= durableUpTo);
  };

  /** Sends what a read returned (what the viewer may see); true when a full page came (more may follow). */
  const deliver = (rows: SseMessage[]): boolean => {
    writeAll(opts.keep ? rows.filter(opts.keep) : rows);
    const last = rows[rows.length - 1];
    if (!closed && last?.id !== undefined) cursor = last.id;
    return rows.length >= pageSize;
  };
  /** Reads and sends pages until a short one. */
  const readOn = async () => {
    while (!closed) {
      const rows = await loadAfter(cursor);
      // Rows another request committed may still be waiting for their flush (group commit).
      if (mustWaitForFlush(rows)) await ctx.durability?.settled();
      if (!deliver(rows)) break;
    }
  };

  let reloadQueued = false;
  const reload = () => {
    if (!opts.loadAfter || reloadQueued || closed) return;
    if (pending === 0 && share) {
      takeShared(share.group);
      return;
    }
    reloadQueued = true;
    enqueue(async () => {
      reloadQueued = false;
      await readOn();
    });
  };

  // An idle stream with a share key joins the read of its cursor and takes the rows in the read's loop.
  const takeShared = (group: ShareGroup) => {
    pending++;
    taking = true;
    const settle = () => {
      pending--;
      taking = false;
      const done = takeDone;
      takeDone = null;
      done?.();
    };
    const at = cursor;
    sharedRead(group, at, () => load(at, pageSize)).takers.push((rows, err) => {
      let goesOn = false;
      try {
        if (rows === null) return failed(err);
        if (closed || (!mustWaitForFlush(rows) && !deliver(rows))) return;
        // A row still waiting for its flush, or a full page: the rest goes the ordinary way.
        goesOn = true;
        void (async () => {
          try {
            if (mustWaitForFlush(rows)) {
              await ctx.durability?.settled();
              if (closed || !deliver(rows)) return;
            }
            await readOn();
          } catch (e) {
            failed(e);
          } finally {
            settle();
          }
        })();
      } catch (e) {
        // This stream's failure ends this stream only: the read's loop goes on to the next.
        failed(e);
      } finally {
        if (!goesOn) settle();
      }
    });
  };

  cleanups.push(
    ctx.bus.subscribe(opts.channel, (payload) => {
      if (closed) return;
      const vouched = Number(opts.durableCursor?.(payload) ?? Number.NaN);
      if (vouched > durableUpTo) durableUpTo = vouched;
      const msg = opts.onEphemeral?.(payload) ?? null;
      // Nothing queued before it: the message goes out now, in the bus's own loop.
      if (msg && pending === 0) write(msg);
      else if (msg) enqueue(() => write(msg));
      else reload();
    }),
  );
  const heartbeat = setInterval(() => {
    if (!closed) res.write(': ping\n\n');
  }, HEARTBEAT_MS);
  heartbeat.unref();
  cleanups.push(() => clearInterval(heartbeat));
  cleanups.push(ctx.streams.add({ sessionId: req.sessionId, end }));
  res.on('close', end);
  res.on('error', end);
  // A client gone before the listeners were in place would otherwise hold its stream slot forever.
  if (res.destroyed) end();

  reload();
  await done;
}
