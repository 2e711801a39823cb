/**
 * The fan-out floor (issue 48 §1): `GET /events` keeps an SSE response open per client; `POST /publish`
 * writes its body, as one `data:` frame, to every open response in one loop and then answers 204. What
 * any server must do at least to deliver one event to N streams, against which the product's comms
 * fan-out p99 is held.
 */
import type { ServerResponse } from 'node:http';
import Fastify from 'fastify';

const PORT = Number(process.env.PORT);

async function main() {
  if (!PORT) throw new Error('the fan-out floor needs PORT');
  const open = new Set<ServerResponse>();
  const app = Fastify();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => done(null, body));
  app.get('/events', (req, reply) => {
    reply.hijack();
    reply.raw.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    reply.raw.write(': open\n\n');
    open.add(reply.raw);
    req.raw.on('close', () => open.delete(reply.raw));
  });
  app.post('/publish', async (req, reply) => {
    const data = typeof req.body === 'string' ? req.body.replace(/\n/g, ' ') : '';
    if (!data) return reply.code(422).send({ detail: 'a JSON body is required' });
    const frame = `event: message\ndata: ${data}\n\n`;
    for (const res of open) res.write(frame);
    return reply.code(204).send();
  });
  app.get('/healthz', async () => ({ status: 'ok', streams: open.size }));
  await app.listen({ port: PORT, host: '127.0.0.1' });
}

void main();
