import http from 'node:http';
import https from 'node:https';
import { Readable } from 'node:stream';
import zlib from 'node:zlib';

/** Keep-alive agents: a model call reuses the connection of the previous one. */
const agents = {
  'http:': new http.Agent({ keepAlive: true }),
  'https:': new https.Agent({ keepAlive: true }),
};
const NULL_BODY_STATUS = new Set([101, 204, 205, 304]);
const REDIRECT_STATUS = new Set([301, 302, 303, 307, 308]);
const DECODERS: Record<string, () => NodeJS.ReadWriteStream> = {
  gzip: () => zlib.createGunzip(),
  'x-gzip': () => zlib.createGunzip(),
  deflate: () => zlib.createInflate(),
  br: () => zlib.createBrotliDecompress(),
};

/** The SDK's fetch failure shape (it retries a TypeError "fetch failed" as a network error). */
const fetchFailed = (cause: unknown) => new TypeError('fetch failed', { cause });

const abortReason = (signal: AbortSignal) =>
  signal.reason ?? new DOMException('This operation was aborted', 'AbortError');

/**
 * `fetch` for the model providers, over node:http(s) with keep-alive agents.
 *
 * The AI SDK's providers call `fetch` once per model call and read the streamed reply through it.
 * Node's built-in fetch (undici) costs about a millisecond per call on the 2-core machines before the
 * request leaves and adds its own stream stages per chunk; this client sends the same request with
 * node:http and hands the SDK a standard `Response` whose body is the socket's stream
 * (docs/decisions.md, "Chat streaming: …"). It covers what a provider call needs: string or byte
 * bodies, abort signals (the request is destroyed, the body stream errors with the signal's reason),
 * compressed replies, and network failures reported as fetch reports them. Anything else — a
 * `Request` object, a streamed or form body, a redirect — goes to the built-in fetch unchanged.
 */
export const providerFetch: typeof fetch = (input, init = {}) => {
  const body = init.body;
  const simpleBody = body == null || typeof body === 'string' || body instanceof Uint8Array;
  if (input instanceof Request || !simpleBody) return fetch(input, init);
  const url = new URL(String(input));
  const agent = agents[url.protocol as keyof typeof agents];
  if (!agent) return fetch(input, init);
  const signal = init.signal ?? undefined;
  if (signal?.aborted) return Promise.reject(abortReason(signal));

  return new Promise<Response>((resolve, reject) => {
    const headers: Record<string, string> = {};
    new Headers(init.headers).forEach((value, key) => {
      headers[key] = value;
    });
    if (body != null) headers['content-length'] = String(Buffer.byteLength(body));
    const transport = url.protocol === 'https:' ? https : http;
    let settled = false;
    const req = transport.request(url, { method: init.method ?? 'GET', headers, agent }, (res) => {
      const status = res.statusCode ?? 0;
      if (REDIRECT_STATUS.has(status) && res.headers.location && init.redirect !== 'manual') {
        res.resume();
        settled = true;
        fetch(input, init).then(resolve, reject);
        return;
      }
      const out = new Headers();
      for (const [key, value] of Object.entries(res.headers)) {
        if (value !== undefined) out.set(key, Array.isArray(value) ? value.join(', ') : value);
      }
      let stream: Readable = res;
      const decode = DECODERS[String(res.headers['content-encoding'] ?? '').toLowerCase()];
      if (decode) {
        stream = res.pipe(decode()) as unknown as Readable;
        res.on('error', (err) => stream.destroy(err));
        out.delete('content-encoding');
        out.delete('content-length');
      }
      signal?.addEventListener('abort', () => stream.destroy(abortReason(signal)), { once: true });
      const nullBody = NULL_BODY_STATUS.has(status) || init.method === 'HEAD';
      if (nullBody) res.resume();
      settled = true;
      resolve(
        new Response(nullBody ? null : (Readable.toWeb(stream) as ReadableStream<Uint8Array>), {
          status,
          statusText: res.statusMessage ?? '',
          headers: out,
        }),
      );
    });
    req.on('error', (err) => {
      if (settled) return;
      settled = true;
      reject(signal?.aborted ? abortReason(signal) : fetchFailed(err));
    });
    signal?.addEventListener(
      'abort',
      () => {
        req.destroy();
        if (!settled) {
          settled = true;
          reject(abortReason(signal));
        }
      },
      { once: true },
    );
    req.end(body ?? undefined);
  });
};
