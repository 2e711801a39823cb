import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** Below this a JSON body goes as it is: compression would save less than it costs. */
export const COMPRESS_MIN_BYTES = 1024;

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

type Encoding = 'br' | 'gzip';

/**
 * Compresses JSON responses above {@link COMPRESS_MIN_BYTES} with brotli or gzip, whichever the
 * client accepts (brotli first). Only finished JSON bodies: SSE streams are hijacked and never pass
 * here, static files come precompressed (spa.ts), and anything already encoded is left alone.
 * Registered after the response cache so the cache keeps (and a hit re-sends) the plain body.
 */
export function registerJsonCompression(app: FastifyInstance): void {
  app.addHook('onSend', async (req, reply, payload) => {
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
    if (!isJson(reply) || reply.getHeader('content-encoding')) return payload;
    const size = Buffer.byteLength(payload);
    if (size < COMPRESS_MIN_BYTES) return payload;
    // The answer now depends on the request's Accept-Encoding, whatever it said this time.
    addVary(reply);
    const encoding = acceptedEncoding(req);
    if (!encoding) return payload;
    const body =
      encoding === 'br'
        ? // Quality 4: most of brotli's gain at a fraction of its maximum's CPU, on every request.
          await brotli(payload, {
            params: {
              [zlib.constants.BROTLI_PARAM_QUALITY]: 4,
              [zlib.constants.BROTLI_PARAM_SIZE_HINT]: size,
            },
          })
        : await gzip(payload, { level: 6 });
    reply.header('content-encoding', encoding);
    reply.removeHeader('content-length');
    return body;
  });
}

function isJson(reply: FastifyReply): boolean {
  const type = reply.getHeader('content-type');
  return typeof type === 'string' && /^application\/(?:[\w.+-]+\+)?json\b/.test(type);
}

/** The best encoding the client accepts (q > 0), or null for identity. */
export function acceptedEncoding(req: FastifyRequest): Encoding | null {
  const header = req.headers['accept-encoding'];
  if (typeof header !== 'string' || !header) return null;
  const quality = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    quality.set(name.trim(), q ? Number(q.slice(2)) || 0 : 1);
  }
  const accepts = (name: Encoding) => (quality.get(name) ?? quality.get('*') ?? 0) > 0;
  if (accepts('br')) return 'br';
  if (accepts('gzip')) return 'gzip';
  return null;
}

function addVary(reply: FastifyReply): void {
  const current = reply.getHeader('vary');
  const value = Array.isArray(current) ? current.join(', ') : current ? String(current) : '';
  if (/(^|,)\s*(\*|accept-encoding)\s*(,|$)/i.test(value)) return;
  reply.header('vary', value ? `${value}, Accept-Encoding` : 'Accept-Encoding');
}
