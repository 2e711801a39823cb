import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import { type BudgetCheck, latencyRatioBudget } from '../budgets.ts';
import { startFloor } from '../floors.ts';
import { pct as rankPct, signIn, sleep, startOwnServer } from '../own-server.ts';
import type { ScenarioGroup } from './types.ts';
import { collectBenchGarbage, quietNote, waitForQuietMachine } from '../quiet-client.ts';

/**
 * Comms streams (issue 6), on a server process of its own so its memory is measured alone:
 * 1. 2,000 open SSE streams on one comms thread: the server's RSS growth per stream
 *    (ARCHITECTURE.md section 8: ≤ 32 KiB per idle stream).
 * 2. Fan-out: one message posted to the thread reaches all 2,000 streams; client-observed latency from
 *    the POST to each client, over a few messages, each 0.5 s after the one before (the first after an
 *    unmeasured warm-up message, itself after the wait for a quiet machine); then the same with 1,000
 *    of the streams closed. Each message is followed by the same frame published to as many streams
 *    of the fan-out floor (bench/floors/fanout-floor.ts), product and floor in turn; section 8: p99
 *    ≤ 1.3× the floor's at 2,000 streams, ≤ 1.4× at 1,000.
 */

const STREAMS = 2000;
const OPEN_BATCH = 100;
const MESSAGES = 5;
const RSS_BUDGET_KIB = 32;
/** The product's fan-out p99 against the floor's, by number of streams (section 8). */
const FANOUT_MAX_RATIO: Record<number, number> = { 2000: 1.3, 1000: 1.4 };

/** Resident memory of a process in KiB (Linux /proc). */
function rssKib(pid: number): number {
  const m = /VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) : Number.NaN;
}

async function api<T>(baseURL: string, token: string, method: string, p: string, body?: unknown): Promise<T> {
  const res = await fetch(baseURL + p, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${await res.text()}`);
  return res.json() as Promise<T>;
}

interface Client {
  /** Resolves once the stream is open (its 200 status line arrived). */
  opened: Promise<void>;
  /** Arrival time of each marker seen, by marker. */
  seen: Map<string, number>;
  close(): void;
}

/**
 * The marker the scenario is waiting for (one message at a time is in flight), shared by every client:
 * each chunk is searched for that one marker only, not for every marker of the run.
 */
interface Expected {
  text: string;
  bytes: Buffer;
}
let expected: Expected | null = null;
const expect = (marker: string | null) => {
  expected = marker === null ? null : { text: marker, bytes: Buffer.from(marker) };
};

/** Bytes of the previous chunk kept for the next search, so a marker split across two reads is found. */
const OVERLAP = 64;

/**
 * One read buffer for every client: `onread` hands each socket's bytes to its callback in this buffer,
 * which the next read overwrites, so a callback copies only what it keeps (a rare split marker's tail).
 */
const READ_BUFFER = Buffer.allocUnsafe(64 * 1024);

/**
 * A raw SSE client on a socket of its own: it writes the GET itself and only looks for the expected
 * marker in the bytes it receives. Thousands of streams share one bench process, so an HTTP client's
 * parsing and string decoding per chunk would be the bench's own latency, not the server's: each user
 * has a client of their own. For the same reason a chunk is searched once, for the one marker in flight,
 * and the socket is read with `onread` into one shared buffer: no stream machinery, no 'data' event and
 * no Buffer per read. With 'data' events, profiles of both processes showed a message whose server
 * loop wrote its 2,000 frames from +8 to +33 ms reach the last client at +52 ms: the p99 was this
 * process's own queue. Now this process idles through the server's loop.
 */
function openClient(url: string): Client {
  const seen = new Map<string, number>();
  const { hostname, port, pathname, search } = new URL(url);
  let status: 'pending' | 'open' = 'pending';
  // The last bytes of the previous read (the shared buffer is overwritten), for a marker split in two.
  const tail = Buffer.alloc(OVERLAP);
  let tailLength = 0;
  let settle: { resolve: () => void; reject: (err: Error) => void } = { resolve: () => {}, reject: () => {} };
  const opened = new Promise<void>((resolve, reject) => {
    settle = { resolve, reject };
  });
  const socket = net.connect({
    host: hostname,
    port: Number(port),
    onread: {
      buffer: READ_BUFFER,
      callback: (size: number, buf: Uint8Array) => {
        const now = performance.now();
        const chunk = buf as Buffer;
        if (status === 'pending') {
          if (chunk.toString('latin1', 0, Math.min(size, 12)) !== 'HTTP/1.1 200') {
            settle.reject(new Error(`stream answered ${chunk.toString('latin1', 0, Math.min(size, 40))}`));
            socket.destroy();
            return false;
          }
          status = 'open';
          settle.resolve();
        }
        const m = expected;
        if (m !== null && !seen.has(m.text)) {
          const data = chunk.subarray(0, size);
          const found =
            data.includes(m.bytes) ||
            (tailLength > 0 &&
              Buffer.concat([tail.subarray(0, tailLength), data.subarray(0, OVERLAP)]).includes(m.bytes));
          if (found) seen.set(m.text, now);
        }
        tailLength = chunk.copy(tail, 0, Math.max(0, size - OVERLAP), size);
        return true;
      },
    },
  });
  socket.setNoDelay(true);
  socket.on('error', (err) => settle.reject(err));
  socket.on('close', () => settle.reject(new Error('stream closed before it opened')));
  // A failed opening rejects `opened`; closing a stream later must not surface as an unhandled rejection.
  opened.catch(() => {});
  socket.write(
    `GET ${pathname}${search} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nAccept: text/event-stream\r\n\r\n`,
  );
  return { opened, seen, close: () => socket.destroy() };
}

const pct = (values: number[], p: number) => rankPct(values, p, 1);

export const commsStreams: ScenarioGroup = {
  name: 'comms-streams',
  description: `${STREAMS} open comms streams in one server process (RSS per stream) and fan-out latency of one message`,
  async run() {
    const notes: string[] = [];
    // Suggestions come from the offline engine whatever keys this machine has: the measure is streams.
    const server = await startOwnServer({
      name: 'comms',
      withoutEnv: ['OPENAI_API_KEY', 'OPENAI_BASE_URL', 'GOOGLE_GENERATIVE_AI_API_KEY'],
    });
    const clients: Client[] = [];
    const floorClients: Client[] = [];
    const budgets: BudgetCheck[] = [];
    const floor = await startFloor('fanout-floor');
    try {
      const ceo = await signIn(server.baseURL, 'ceo@demo.example');
      const maya = await signIn(server.baseURL, 'maya@demo.example');
      const threads = await api<{ id: string; other_user_name: string | null }[]>(
        server.baseURL,
        ceo,
        'GET',
        '/api/comms/threads',
      );
      const thread = threads.find((t) => t.other_user_name === 'Maya Patel');
      if (!thread) throw new Error('the demo thread between Olivia and Maya is missing');
      // One set of markers per round: at all the streams, then at half of them.
      const rounds = [STREAMS, STREAMS / 2].map((streams, r) => ({
        streams,
        warmUp: `fanout-${r}-warm-${randomBytes(4).toString('hex')}`,
        markers: Array.from(
          { length: MESSAGES },
          (_, i) => `fanout-${r}-${i}-${randomBytes(4).toString('hex')}`,
        ),
      }));
      const post = (text: string) => {
        expect(text);
        return api(server.baseURL, ceo, 'POST', `/api/comms/threads/${thread.id}/messages`, { text });
      };
      const arrival = async (marker: string, at: Client[] = clients) => {
        const deadline = Date.now() + 10_000;
        // Poll rarely: the arrival times are taken on arrival, polling only decides when to stop waiting.
        while (Date.now() < deadline && at.some((c) => !c.seen.has(marker))) await sleep(100);
      };
      /** The product's frame of a message, with the floor's marker: the same bytes but for the marker. */
      const publish = async (message: unknown, marker: string, floorMarker: string) => {
        expect(floorMarker);
        const res = await fetch(`${floor.baseURL}/publish`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(message).replaceAll(marker, floorMarker),
        });
        if (res.status !== 204) throw new Error(`the fan-out floor answered ${res.status}`);
      };
      /** Each client's latency from t0 to the marker, and how many never saw it. */
      const latenciesOf = (at: Client[], marker: string, t0: number) => {
        const these: number[] = [];
        let missed = 0;
        for (const c of at) {
          const seen = c.seen.get(marker);
          if (seen === undefined) missed++;
          else these.push(seen - t0);
        }
        return { these, missed };
      };
      const url = `${server.baseURL}/api/comms/threads/${thread.id}/events?token=${encodeURIComponent(maya)}`;

      // Warm the route and the allocator a little so the baseline is not a cold process.
      const warm = Array.from({ length: 20 }, () => openClient(url));
      await Promise.all(warm.map((c) => c.opened));
      for (const c of warm) c.close();
      await sleep(1500);
      const before = rssKib(server.pid);

      const openStart = performance.now();
      for (let i = 0; i < STREAMS; i += OPEN_BATCH) {
        const batch = Array.from({ length: Math.min(OPEN_BATCH, STREAMS - i) }, () => openClient(url));
        await Promise.all(batch.map((c) => c.opened));
        clients.push(...batch);
      }
      for (let i = 0; i < STREAMS; i += OPEN_BATCH) {
        const batch = Array.from({ length: Math.min(OPEN_BATCH, STREAMS - i) }, () =>
          openClient(`${floor.baseURL}/events`),
        );
        await Promise.all(batch.map((c) => c.opened));
        floorClients.push(...batch);
      }
      const openSeconds = (performance.now() - openStart) / 1000;
      await sleep(2000);
      const after = rssKib(server.pid);
      const perStream = (after - before) / STREAMS;
      notes.push(
        `${STREAMS} comms streams opened in ${openSeconds.toFixed(1)} s; server RSS ${Math.round(before / 1024)} → ` +
          `${Math.round(after / 1024)} MiB = ${perStream.toFixed(1)} KiB per stream (budget ${RSS_BUDGET_KIB} KiB: ` +
          `${perStream <= RSS_BUDGET_KIB ? 'within' : 'OVER'})`,
      );
      budgets.push({
        group: 'comms-streams',
        name: `${STREAMS} idle comms streams`,
        budget: `≤ ${RSS_BUDGET_KIB} KiB RSS per stream`,
        figure: `${perStream.toFixed(1)} KiB per stream`,
        pass: perStream <= RSS_BUDGET_KIB,
      });

      for (const round of rounds) {
        // The second round closes streams down to its count: section 8 sets its budget at 1,000.
        for (const c of [...clients.splice(round.streams), ...floorClients.splice(round.streams)]) c.close();
        if (clients.length !== round.streams || floorClients.length !== round.streams)
          throw new Error('fewer streams than the round needs');
        await sleep(1000);
        const quiet = await waitForQuietMachine();
        collectBenchGarbage();
        // The first delivery to a fresh set of streams pays for compiling the path: not measured.
        const warm = await post(round.warmUp);
        await arrival(round.warmUp);
        await publish(warm, round.warmUp, `${round.warmUp}-floor`);
        await arrival(`${round.warmUp}-floor`, floorClients);
        await sleep(500);
        const latencies: number[] = [];
        const floorLatencies: number[] = [];
        let missing = 0;
        const perMessage: string[] = [];
        for (const marker of round.markers) {
          let t0 = performance.now();
          const message = await post(marker);
          await arrival(marker);
          const product = latenciesOf(clients, marker, t0);
          await sleep(250);
          const floorMarker = `${marker}-floor`;
          t0 = performance.now();
          await publish(message, marker, floorMarker);
          await arrival(floorMarker, floorClients);
          const floored = latenciesOf(floorClients, floorMarker, t0);
          latencies.push(...product.these);
          floorLatencies.push(...floored.these);
          missing += product.missed + floored.missed;
          perMessage.push(`${pct(product.these, 99)}/${pct(floored.these, 99)}`);
          // Let the background suggestion for Maya (and its note to every stream) pass before the next.
          await sleep(500);
        }
        const p99 = pct(latencies, 99);
        const floorP99 = pct(floorLatencies, 99);
        notes.push(
          `fan-out of ${MESSAGES} messages to ${round.streams} streams (POST → each client): p50 ${pct(latencies, 50)} ms, ` +
            `p99 ${p99} ms, max ${pct(latencies, 100)} ms, ${missing} missed; the fan-out floor's p50 ` +
            `${pct(floorLatencies, 50)} ms, p99 ${floorP99} ms; p99 of each message (product/floor) ${perMessage.join(', ')} ms; ${quietNote(quiet)}`,
        );
        const check = latencyRatioBudget(
          'comms-streams',
          `one event to ${round.streams} streams`,
          'fan-out floor',
          'p99',
          p99,
          floorP99,
          FANOUT_MAX_RATIO[round.streams] ?? 1.3,
        );
        budgets.push(
          missing ? { ...check, figure: `${check.figure}, ${missing} missed`, pass: false } : check,
        );
      }
    } finally {
      for (const c of [...clients, ...floorClients]) c.close();
      await floor.stop();
      await server.stop();
    }
    return { notes, budgets };
  },
};
