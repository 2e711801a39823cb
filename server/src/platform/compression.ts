import zlib from 'node:zlib';
import fastifyCompress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';

/** Below this a body goes as it is: compression would save less than it costs. */
export const COMPRESS_MIN_BYTES = 1024;

/**
 * Responses above {@link COMPRESS_MIN_BYTES} are compressed with brotli or gzip, whichever the client
 * accepts (brotli first), by `@fastify/compress`. Registered after the response cache's and the
 * durability hook's `onSend`, so the cache keeps (and a hit re-sends) the plain body and nothing is
 * compressed while a write waits for its flush; before `@fastify/static`, whose precompressed
 * `.br`/`.gz` files (spa.ts) it leaves alone. SSE streams are hijacked and never pass here.
 * Request bodies are not decompressed: the API takes plain JSON, and a compressed body would
 * sidestep the body limit's meaning.
 */
export async function registerCompression(app: FastifyInstance): Promise<void> {
  await app.register(fastifyCompress, {
    global: true,
    globalDecompression: false,
    threshold: COMPRESS_MIN_BYTES,
    encodings: ['br', 'gzip'],
    // Quality 4: most of brotli's gain at a fraction of its maximum's CPU, on every request.
    brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } },
    zlibOptions: { level: 6 },
  });
}
