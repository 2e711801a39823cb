import net from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { PostgresEventBus } from './pg-event-bus.ts';

/** One PostgreSQL wire message: type byte, int32 length (itself included), body. */
function message(type: string, body: Buffer): Buffer {
  const head = Buffer.alloc(5);
  head.write(type, 0, 'latin1');
  head.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([head, body]);
}

const cstr = (s: string) => Buffer.from(`${s}\0`, 'latin1');

/**
 * What a PostgreSQL server that is shutting down can send a new connection in one chunk: the end of the
 * handshake (AuthenticationOk, ReadyForQuery) and, right behind it, "terminating connection due to
 * administrator command" (57P01).
 */
const HANDSHAKE_THEN_TERMINATED = Buffer.concat([
  message('R', Buffer.from([0, 0, 0, 0])),
  message('Z', Buffer.from('I', 'latin1')),
  message(
    'E',
    Buffer.concat([
      cstr('SFATAL'),
      cstr('VFATAL'),
      cstr('C57P01'),
      cstr('Mterminating connection due to administrator command'),
      Buffer.from([0]),
    ]),
  ),
]);

let cleanup: (() => Promise<void>) | null = null;
afterEach(async () => {
  await cleanup?.();
  cleanup = null;
});

// Found by the faults group: the server process died ("Unhandled 'error' event") while PostgreSQL
// restarted, because the LISTEN client had no 'error' listener until its awaited connect resumed.
it('survives an error that arrives in the same chunk as the end of the handshake, and connects again', async () => {
  let connections = 0;
  const server = net.createServer((socket) => {
    connections++;
    socket.once('data', () => socket.end(HANDSHAKE_THEN_TERMINATED));
    socket.on('error', () => {});
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as net.AddressInfo;

  const uncaught: unknown[] = [];
  const onUncaught = (err: unknown) => uncaught.push(err);
  process.on('uncaughtException', onUncaught);
  const bus = new PostgresEventBus(`postgres://cc@127.0.0.1:${port}/cc`, async () => {});
  cleanup = async () => {
    process.off('uncaughtException', onUncaught);
    await bus.close();
    await new Promise((r) => server.close(r));
  };

  const deadline = Date.now() + 5000;
  while (connections < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
  expect(uncaught).toEqual([]);
  // It tried again after the failed handshake (backoff 250 ms), rather than giving up or crashing.
  expect(connections).toBeGreaterThanOrEqual(2);
});
